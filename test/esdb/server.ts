/**
 * An in-memory server that speaks EventStoreDB's gRPC Streams protocol (event_store.client.streams.Streams),
 * built from the service definitions the client package generates from EventStoreDB's .proto files.
 * It answers what the adapter and @eventstore/db-client use: Append with expected revision, idempotent
 * event ids and positions; Read of a stream and of $all, forwards and backwards, with filters;
 * catch-up subscriptions to $all and to a stream (confirmation, catch-up, checkpoints, caught-up,
 * then live); stream-not-found and wrong-expected-version answers with the server's details.
 * Test code only: it is not shipped with the product.
 */
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import * as grpc from '@grpc/grpc-js';
import type * as StreamsPb from '@eventstore/db-client/generated/streams_pb.js';
import type * as SharedPb from '@eventstore/db-client/generated/shared_pb.js';

// The generated modules are CommonJS and check `instanceof` on their own classes: load the very
// modules the client loads.
const require = createRequire(import.meta.url);
const streamsPb: typeof StreamsPb = require('@eventstore/db-client/generated/streams_pb.js');
const sharedPb: typeof SharedPb = require('@eventstore/db-client/generated/shared_pb.js');
const { StreamsService } = require('@eventstore/db-client/generated/streams_grpc_pb.js') as {
  StreamsService: grpc.ServiceDefinition;
};

const { ReadReq, ReadResp, AppendResp } = streamsPb;
type ReadReqOptions = StreamsPb.ReadReq.Options;

export type StoredEvent = {
  id: string;
  stream: string;
  revision: bigint;
  type: string;
  contentType: string;
  data: Uint8Array;
  metadata: Uint8Array;
  /** Commit and prepare position: one log record per event, as on a single-node server. */
  position: bigint;
  /** .NET ticks (100 ns) since the Unix epoch, as the server stamps `created`. */
  created: bigint;
};

/** The events a filter lets through: stream name or event type, by prefixes or a regular expression. */
type Filter = ((event: StoredEvent) => boolean) | null;

/** Events considered between two checkpoints of a filtered subscription: the window (32 unless set) times the multiplier. */
const READ_BATCH = 32;
const MAX_U64 = 18446744073709551615n;

class Log {
  events: StoredEvent[] = [];
  streams = new Map<string, StoredEvent[]>();
  byId = new Map<string, StoredEvent>();
  /** Where the next record goes: positions grow by the record's size, like byte offsets in a chunk file. */
  next = 1024n;
  private waiters = new Set<() => void>();

  write(
    stream: string,
    proposed: Omit<StoredEvent, 'stream' | 'revision' | 'position' | 'created'>[],
  ): StoredEvent[] {
    const events = this.streams.get(stream) ?? [];
    this.streams.set(stream, events);
    const written = proposed.map((event) => {
      const stored: StoredEvent = {
        ...event,
        stream,
        revision: BigInt(events.length),
        position: this.next,
        created: BigInt(Date.now()) * 10_000n,
      };
      this.next +=
        96n + BigInt(event.data.length + event.metadata.length + event.type.length + stream.length);
      events.push(stored);
      this.events.push(stored);
      this.byId.set(stored.id, stored);
      return stored;
    });
    const waiting = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiting) wake();
    return written;
  }

  /** Index of the first event whose position is at least `position` (binary search). */
  indexFrom(position: bigint): number {
    let low = 0;
    let high = this.events.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.events[mid].position < position) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Resolves at the next write, or when `signal` aborts. */
  changed(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        this.waiters.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

const uuidOf = (uuid: SharedPb.UUID | undefined): string => {
  if (!uuid) return randomUUID();
  if (uuid.hasString()) return uuid.getString();
  const structured = uuid.getStructured()!;
  const hex =
    BigInt.asUintN(64, BigInt(structured.getMostSignificantBits())).toString(16).padStart(16, '0') +
    BigInt.asUintN(64, BigInt(structured.getLeastSignificantBits())).toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

const streamNameOf = (identifier: SharedPb.StreamIdentifier | undefined): string =>
  Buffer.from(identifier?.getStreamName_asU8() ?? new Uint8Array()).toString('utf8');

const identifierOf = (stream: string) =>
  new sharedPb.StreamIdentifier().setStreamName(Buffer.from(stream, 'utf8'));

function toFilter(options: ReadReqOptions): { filter: Filter; checkpointEvery: number } {
  if (!options.hasFilter()) return { filter: null, checkpointEvery: 0 };
  const filterOptions = options.getFilter()!;
  const onStream = filterOptions.hasStreamIdentifier();
  const expression = onStream
    ? filterOptions.getStreamIdentifier()!
    : filterOptions.getEventType()!;
  const regex = expression.getRegex();
  const prefixes = expression.getPrefixList();
  const test = regex
    ? (value: string) => new RegExp(regex).test(value)
    : (value: string) => prefixes.some((prefix) => value.startsWith(prefix));
  const window = filterOptions.hasMax() ? filterOptions.getMax() : READ_BATCH;
  const multiplier = filterOptions.getCheckpointintervalmultiplier() || 1;
  return {
    filter: (event) => test(onStream ? event.stream : event.type),
    checkpointEvery: window * multiplier,
  };
}

function readEvent(
  event: StoredEvent,
  uuidOption: ReadReqOptions['getUuidOption'] extends () => infer U ? U : never,
): StreamsPb.ReadResp {
  const recorded = new ReadResp.ReadEvent.RecordedEvent();
  const id = new sharedPb.UUID();
  if (uuidOption?.hasStructured()) {
    const hex = event.id.replaceAll('-', '');
    id.setStructured(
      new sharedPb.UUID.Structured()
        .setMostSignificantBits(BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`)).toString())
        .setLeastSignificantBits(BigInt.asIntN(64, BigInt(`0x${hex.slice(16)}`)).toString()),
    );
  } else {
    id.setString(event.id);
  }
  recorded.setId(id);
  recorded.setStreamIdentifier(identifierOf(event.stream));
  recorded.setStreamRevision(event.revision.toString());
  recorded.setCommitPosition(event.position.toString());
  recorded.setPreparePosition(event.position.toString());
  recorded.getMetadataMap().set('type', event.type);
  recorded.getMetadataMap().set('content-type', event.contentType);
  recorded.getMetadataMap().set('created', event.created.toString());
  recorded.setCustomMetadata(event.metadata);
  recorded.setData(event.data);
  const read = new ReadResp.ReadEvent()
    .setEvent(recorded)
    .setCommitPosition(event.position.toString());
  return new ReadResp().setEvent(read);
}

const checkpoint = (position: bigint) =>
  new ReadResp().setCheckpoint(
    new ReadResp.Checkpoint()
      .setCommitPosition(position.toString())
      .setPreparePosition(position.toString()),
  );

/** Writes with backpressure; false once the call is gone. */
async function send(
  call: grpc.ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>,
  message: StreamsPb.ReadResp,
  signal: AbortSignal,
): Promise<boolean> {
  if (signal.aborted) return false;
  if (!call.write(message)) await once(call, 'drain', { signal }).catch(() => undefined);
  return !signal.aborted;
}

export type TestEventStoreServer = {
  url: string;
  port: number;
  log: Log;
  /** Every subscription to $all asked for since start, where it started, and whether it is still open. */
  subscriptionsToAll: { from: bigint | 'start' | 'end'; open: boolean }[];
  /** The next `count` appends are written, and their answers lost (the client sees UNAVAILABLE). */
  loseAppendReplies(count: number): void;
  /** Ends every call (clients see the connection drop) and stops listening; the log is kept. */
  stop(): Promise<void>;
  /** Listens again on the same port with the same log, as a restarted node would. */
  start(): Promise<void>;
  close(): Promise<void>;
};

/** Starts the server on 127.0.0.1 (port 0: a free one). */
export async function startTestEventStoreServer(
  options: { port?: number } = {},
): Promise<TestEventStoreServer> {
  const log = new Log();
  // A node writes system events of its own: readers of $all must filter them out.
  const system = (type: string, stream: string) =>
    log.write(stream, [
      {
        id: randomUUID(),
        type,
        contentType: 'application/json',
        data: Buffer.from('{}'),
        metadata: new Uint8Array(),
      },
    ]);
  system('$settings', '$settings');
  const calls = new Set<AbortController>();
  const subscriptionsToAll: { from: bigint | 'start' | 'end'; open: boolean }[] = [];
  let lostReplies = 0;
  let server: grpc.Server | null = null;
  let port = options.port ?? 0;

  const append = (
    call: grpc.ServerReadableStream<StreamsPb.AppendReq, StreamsPb.AppendResp>,
    callback: grpc.sendUnaryData<StreamsPb.AppendResp>,
  ) => {
    let header: StreamsPb.AppendReq.Options | null = null;
    const proposed: Omit<StoredEvent, 'stream' | 'revision' | 'position' | 'created'>[] = [];
    call.on('data', (request: StreamsPb.AppendReq) => {
      if (request.hasOptions()) {
        header = request.getOptions()!;
        return;
      }
      const message = request.getProposedMessage()!;
      const metadata = message.getMetadataMap();
      proposed.push({
        id: uuidOf(message.getId()),
        type: metadata.get('type') ?? '',
        contentType: metadata.get('content-type') ?? 'application/octet-stream',
        data: message.getData_asU8(),
        metadata: message.getCustomMetadata_asU8(),
      });
    });
    call.on('error', () => undefined);
    call.on('end', () => {
      if (!header)
        return callback({
          code: grpc.status.INVALID_ARGUMENT,
          details: 'The first message of an append carries its options',
        });
      const stream = streamNameOf(header.getStreamIdentifier());
      if (!stream)
        return callback({ code: grpc.status.INVALID_ARGUMENT, details: 'Stream name is empty' });
      const events = log.streams.get(stream) ?? [];
      const current = BigInt(events.length) - 1n;
      const Case = streamsPb.AppendReq.Options.ExpectedStreamRevisionCase;
      const expectedCase = header.getExpectedStreamRevisionCase();
      const expected =
        expectedCase === Case.REVISION
          ? BigInt(header.getRevision())
          : expectedCase === Case.NO_STREAM
            ? -1n
            : null;

      const success = (last: StoredEvent | null) => {
        const answer = new AppendResp.Success();
        if (last) answer.setCurrentRevision(last.revision.toString());
        else answer.setNoStream(new sharedPb.Empty());
        if (last)
          answer.setPosition(
            new AppendResp.Position()
              .setCommitPosition(last.position.toString())
              .setPreparePosition(last.position.toString()),
          );
        else answer.setNoPosition(new sharedPb.Empty());
        callback(null, new AppendResp().setSuccess(answer));
      };
      const wrongExpectedVersion = () => {
        const wrong = new AppendResp.WrongExpectedVersion();
        if (expectedCase === Case.ANY)
          wrong.setExpectedAny(new sharedPb.Empty()).setAny2060(new sharedPb.Empty());
        else if (expectedCase === Case.STREAM_EXISTS)
          wrong
            .setExpectedStreamExists(new sharedPb.Empty())
            .setStreamExists2060(new sharedPb.Empty());
        // The server also sets the deprecated expected_revision_20_6_0 to 2^64 - 1 here, which the
        // generated JavaScript cannot write (a double); clients since 20.10 read expected_no_stream.
        else if (expectedCase === Case.NO_STREAM) wrong.setExpectedNoStream(new sharedPb.Empty());
        else
          wrong.setExpectedRevision(expected!.toString()).setExpectedRevision2060(Number(expected));
        if (current < 0n)
          wrong.setCurrentNoStream(new sharedPb.Empty()).setNoStream2060(new sharedPb.Empty());
        else wrong.setCurrentRevision(current.toString()).setCurrentRevision2060(Number(current));
        callback(null, new AppendResp().setWrongExpectedVersion(wrong));
      };
      const write = () => {
        const written = proposed.length ? log.write(stream, proposed) : [];
        if (written.length && lostReplies > 0) {
          // Written, but the answer never reaches the client: it sees the connection drop.
          lostReplies--;
          return callback({
            code: grpc.status.UNAVAILABLE,
            details: 'Connection lost before the answer',
          });
        }
        success(written.at(-1) ?? events.at(-1) ?? null);
      };

      if (expected === null) {
        // any / stream_exists: a write whose first event id is already in this stream is a retry.
        if (expectedCase === Case.STREAM_EXISTS && current < 0n) return wrongExpectedVersion();
        let last: StoredEvent | null = null;
        for (const [index, event] of proposed.entries()) {
          const known = log.byId.get(event.id);
          if (!known || known.stream !== stream)
            return index === 0 ? write() : wrongExpectedVersion();
          last = known;
        }
        return last ? success(last) : write();
      }
      if (expected < current) {
        // Behind the stream: the same events with the same ids at the next revisions is a retry.
        let revision = expected;
        for (const event of proposed) {
          revision += 1n;
          if (events[Number(revision)]?.id !== event.id) return wrongExpectedVersion();
        }
        return revision === expected ? wrongExpectedVersion() : success(events[Number(revision)]);
      }
      if (expected > current) return wrongExpectedVersion();
      return write();
    });
  };

  const read = (call: grpc.ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>) => {
    const controller = new AbortController();
    calls.add(controller);
    const { signal } = controller;
    call.on('cancelled', () => controller.abort());
    call.on('close', () => controller.abort());
    call.on('error', () => controller.abort());
    const options = call.request.getOptions();
    const finish = (error?: grpc.ServiceError | { code: grpc.status; details: string }) => {
      calls.delete(controller);
      if (signal.aborted && !error) return;
      if (error) call.destroy(Object.assign(new Error(error.details), error));
      else call.end();
    };
    if (!options)
      return finish({ code: grpc.status.INVALID_ARGUMENT, details: 'A read needs options' });
    const run = options.hasStream()
      ? readStream(call, options, signal)
      : readAll(call, options, signal);
    run.then(
      () => finish(),
      (error: { code?: grpc.status; message?: string }) =>
        finish({
          code: error.code ?? grpc.status.INTERNAL,
          details: error.message ?? String(error),
        }),
    );
  };

  const backwards = (options: ReadReqOptions) =>
    options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
  const countOf = (options: ReadReqOptions) =>
    options.hasCount() ? BigInt(options.getCount()) : MAX_U64;

  async function readStream(
    call: grpc.ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>,
    options: ReadReqOptions,
    signal: AbortSignal,
  ) {
    const streamOptions = options.getStream()!;
    const stream = streamNameOf(streamOptions.getStreamIdentifier());
    const uuidOption = options.getUuidOption();
    const Case = ReadReq.Options.StreamOptions.RevisionOptionCase;
    const revisionCase = streamOptions.getRevisionOptionCase();
    if (options.hasSubscription()) {
      // Catch-up subscription to one stream: after the given revision (from start: all), then live.
      if (
        !(await send(
          call,
          new ReadResp().setConfirmation(
            new ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID()),
          ),
          signal,
        ))
      )
        return;
      let next =
        revisionCase === Case.REVISION
          ? Number(streamOptions.getRevision()) + 1
          : revisionCase === Case.END
            ? (log.streams.get(stream)?.length ?? 0)
            : 0;
      let caughtUp = false;
      while (!signal.aborted) {
        const events = log.streams.get(stream) ?? [];
        while (next < events.length)
          if (!(await send(call, readEvent(events[next++], uuidOption), signal))) return;
        if (!caughtUp) {
          caughtUp = true;
          if (!(await send(call, new ReadResp().setCaughtUp(new ReadResp.CaughtUp()), signal)))
            return;
        }
        await log.changed(signal);
      }
      return;
    }
    const events = log.streams.get(stream);
    if (!events || events.length === 0) {
      await send(
        call,
        new ReadResp().setStreamNotFound(
          new ReadResp.StreamNotFound().setStreamIdentifier(identifierOf(stream)),
        ),
        signal,
      );
      return;
    }
    let count = countOf(options);
    if (backwards(options)) {
      let index =
        revisionCase === Case.REVISION
          ? Math.min(Number(streamOptions.getRevision()), events.length - 1)
          : events.length - 1;
      if (revisionCase === Case.START) index = 0;
      for (; index >= 0 && count > 0n; index--, count--)
        if (!(await send(call, readEvent(events[index], uuidOption), signal))) return;
    } else {
      let index =
        revisionCase === Case.REVISION
          ? Number(streamOptions.getRevision())
          : revisionCase === Case.END
            ? events.length
            : 0;
      for (; index < events.length && count > 0n; index++, count--)
        if (!(await send(call, readEvent(events[index], uuidOption), signal))) return;
    }
  }

  async function readAll(
    call: grpc.ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>,
    options: ReadReqOptions,
    signal: AbortSignal,
  ) {
    const allOptions = options.getAll()!;
    const uuidOption = options.getUuidOption();
    const Case = ReadReq.Options.AllOptions.AllOptionCase;
    const allCase = allOptions.getAllOptionCase();
    const from =
      allCase === Case.POSITION ? BigInt(allOptions.getPosition()!.getCommitPosition()) : null;
    const { filter, checkpointEvery } = toFilter(options);
    const passes = (event: StoredEvent) => !filter || filter(event);
    if (options.hasSubscription()) {
      const started = {
        from: allCase === Case.END ? ('end' as const) : (from ?? ('start' as const)),
        open: true,
      };
      subscriptionsToAll.push(started);
      signal.addEventListener(
        'abort',
        () => {
          started.open = false;
        },
        { once: true },
      );
      if (
        !(await send(
          call,
          new ReadResp().setConfirmation(
            new ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID()),
          ),
          signal,
        ))
      )
        return;
      // A subscription starts after its position: the event at it was the last one handled.
      let index =
        allCase === Case.END ? log.events.length : from === null ? 0 : log.indexFrom(from + 1n);
      let considered = 0;
      let caughtUp = false;
      while (!signal.aborted) {
        while (index < log.events.length) {
          const event = log.events[index++];
          considered++;
          if (passes(event) && !(await send(call, readEvent(event, uuidOption), signal))) return;
          if (filter && considered >= checkpointEvery) {
            considered = 0;
            if (!(await send(call, checkpoint(event.position), signal))) return;
          }
        }
        if (!caughtUp) {
          caughtUp = true;
          // Going live: a filtered subscription gets a checkpoint at the end of the log, then caught-up.
          if (
            filter &&
            !(await send(call, checkpoint(index > 0 ? log.events[index - 1].position : 0n), signal))
          )
            return;
          if (!(await send(call, new ReadResp().setCaughtUp(new ReadResp.CaughtUp()), signal)))
            return;
        }
        await log.changed(signal);
      }
      return;
    }
    let count = countOf(options);
    if (backwards(options)) {
      // Backwards from a position: the events before it.
      let index =
        allCase === Case.POSITION
          ? log.indexFrom(from!) - 1
          : allCase === Case.START
            ? -1
            : log.events.length - 1;
      for (; index >= 0 && count > 0n; index--) {
        if (!passes(log.events[index])) continue;
        count--;
        if (!(await send(call, readEvent(log.events[index], uuidOption), signal))) return;
      }
    } else {
      // Forwards from a position: the event at it and those after.
      let index =
        allCase === Case.POSITION
          ? log.indexFrom(from!)
          : allCase === Case.END
            ? log.events.length
            : 0;
      for (; index < log.events.length && count > 0n; index++) {
        if (!passes(log.events[index])) continue;
        count--;
        if (!(await send(call, readEvent(log.events[index], uuidOption), signal))) return;
      }
    }
  }

  const unimplemented = (_call: unknown, callback: grpc.sendUnaryData<unknown>) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: 'Not offered by the test server' });

  const listen = async () => {
    const next = new grpc.Server();
    next.addService(StreamsService, {
      read,
      append,
      delete: unimplemented,
      tombstone: unimplemented,
      batchAppend: (call: grpc.ServerDuplexStream<unknown, unknown>) =>
        call.destroy(
          Object.assign(new Error('Not offered by the test server'), {
            code: grpc.status.UNIMPLEMENTED,
          }),
        ),
    });
    port = await new Promise<number>((resolve, reject) =>
      next.bindAsync(
        `127.0.0.1:${port}`,
        grpc.ServerCredentials.createInsecure(),
        (error, bound) => (error ? reject(error) : resolve(bound)),
      ),
    );
    server = next;
  };
  await listen();

  const stop = async () => {
    if (!server) return;
    const current = server;
    server = null;
    for (const call of calls) call.abort();
    calls.clear();
    current.forceShutdown();
  };

  return {
    get url() {
      return `esdb://127.0.0.1:${port}?tls=false`;
    },
    get port() {
      return port;
    },
    log,
    subscriptionsToAll,
    loseAppendReplies: (count) => {
      lostReplies = count;
    },
    stop,
    start: async () => {
      if (server) return;
      await listen();
      system('$statsCollected', `$stats-127.0.0.1:${port}`);
    },
    close: stop,
  };
}
