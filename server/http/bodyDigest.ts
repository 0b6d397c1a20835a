import { createHash, type Hash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { PayloadTooLargeError } from '../../domain/shared/errors.ts';

/** A replayed multipart body is read here to compare it: no more than the multipart limits allow. */
const MAX_REPLAY_BODY_BYTES = 40 * 1024 * 1024;

/** SHA-256 of the raw body as its consumers read it (Fastify's JSON parser or busboy), chunk by chunk. */
export class BodyDigest {
  private readonly hash: Hash = createHash('sha256');
  private value: string | null = null;
  ended = false;
  bytes = 0;

  private readonly raw: FastifyRequest['raw'];

  constructor(raw: FastifyRequest['raw']) {
    this.raw = raw;
    const emit = raw.emit;
    const digest = this;
    // Every consumer here reads through 'data' events (pipe, Fastify's body reader): tapping
    // emit sees each chunk exactly once without taking the stream from them.
    raw.emit = function tapped(this: unknown, event: string | symbol, ...args: unknown[]) {
      if (event === 'data' && digest.value === null) {
        const chunk = args[0] as Buffer | string;
        digest.bytes += chunk.length;
        digest.hash.update(chunk);
      } else if (event === 'end') {
        digest.ended = true;
      }
      return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
    } as typeof raw.emit;
  }

  /** The hex digest once the body was read to its end; null while it was not. */
  digest(): string | null {
    if (this.value === null && this.ended) this.value = this.hash.digest('hex');
    return this.value;
  }

  /** Reads what no one read yet (a multipart body before its handler), then digests. */
  async readToEnd(): Promise<string> {
    const raw = this.raw;
    if (!this.ended && !raw.readableEnded) {
      await new Promise<void>((resolve, reject) => {
        const onData = () => {
          if (this.bytes > MAX_REPLAY_BODY_BYTES) {
            raw.off('data', onData);
            raw.pause();
            reject(new PayloadTooLargeError('The request body is too large'));
          }
        };
        raw.on('data', onData);
        raw.once('end', () => resolve());
        raw.once('error', reject);
        raw.resume();
      });
    }
    this.ended = true;
    return this.digest()!;
  }
}
