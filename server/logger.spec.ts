/**
 * The request log keeps no secret that travels in a URL: a tracking link's token (the public API,
 * the page the link opens, its revocation), the event feed's `?token=`, a reset code, and the same
 * again %-encoded. The real app's requests are logged through the product's logger into a stream
 * read here.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import t from 'tap';
import { createLogger } from './logger.ts';
import { startListeningApp } from './realtime/testing.ts';

process.env.RATE_LIMIT_PER_MINUTE = '100000';
const lines: string[] = [];
const stream = new Writable({
  write(chunk, _encoding, callback) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    callback();
  },
});
const logger = createLogger({ logLevel: 'info', prettyLogs: false }, stream);
const { baseUrl } = await startListeningApp(t, {}, logger);

/** A token shaped like a tracking link's (256 random bits, base64url). */
const secret = () => randomBytes(32).toString('base64url');
/** Fastify logs the completed request just after the answer went out. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

t.test(
  'a tracking link token in the path is not logged, on the API, the page and the revocation',
  async (t) => {
    for (const path of [
      '/api/shared/track/',
      '/shared/track/',
      `/api/tours/${crypto.randomUUID()}/share/`,
    ]) {
      lines.length = 0;
      const token = secret();
      const answer = await fetch(`${baseUrl}${path}${token}`, {
        method: path.includes('/tours/') ? 'DELETE' : 'GET',
        headers: { referer: `${baseUrl}/shared/track/${token}` },
      });
      t.ok(answer.status < 500, `${path}: answered ${answer.status}`);
      await settled();
      const log = lines.join('\n');
      t.notOk(log.includes(token), `${path}: the token is nowhere in the log`);
      t.ok(
        lines.some((line) => JSON.parse(line).req?.url === `${path}[redacted]`),
        `${path}: the request is logged as ${path}[redacted]`,
      );
    }
  },
);

t.test(
  'secret query values are not logged: the event feed token, a reset code, a share token',
  async (t) => {
    for (const [path, name] of [
      ['/api/events', 'token'],
      ['/reset-password', 'code'],
      ['/socket.io/', 'token'],
      ['/api/events', 'access_token'],
    ] as const) {
      lines.length = 0;
      const value = secret();
      await fetch(`${baseUrl}${path}?lang=en&${name}=${value}&EIO=4`);
      await settled();
      t.notOk(
        lines.join('\n').includes(value),
        `${path}?${name}=: the value is nowhere in the log`,
      );
    }
    lines.length = 0;
    const value = secret();
    await fetch(`${baseUrl}/reset-password?code=${value}`);
    await settled();
    t.ok(
      lines.some((line) => JSON.parse(line).req?.url === '/reset-password?code=[redacted]'),
      'logged as ?code=[redacted]',
    );
  },
);

t.test(
  'an encoded path that reaches the same route does not slip the token past the log',
  async (t) => {
    lines.length = 0;
    const token = secret();
    const answer = await fetch(`${baseUrl}/api/shared/tr%61ck/${token}`);
    t.equal(answer.status, 404);
    t.equal(
      ((await answer.json()) as { message: string }).message,
      'This tracking link does not exist or has ended',
      'the shared tracking route answered it',
    );
    await settled();
    t.notOk(lines.join('\n').includes(token), 'the token is nowhere in the log');
    t.ok(
      lines.some((line) => line.includes('[redacted]')),
      'and the request is logged with [redacted]',
    );
  },
);
