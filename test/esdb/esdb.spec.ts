import t, { type Test } from 'tap';
import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START as ESDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
} from '@eventstore/db-client';
import { eventStoreContract, meta } from '../../server/eventstore/eventStore.contract.ts';
import { createEsdbEventStore } from '../../server/eventstore/esdb/esdbEventStore.ts';
import { isTransient } from '../../server/eventstore/esdb/esdbMapping.ts';
import {
  START,
  comparePositions,
  type EventStore,
  type LogPosition,
  type RecordedEvent,
} from '../../server/eventstore/eventStore.ts';
import { startTestEventStoreServer, type TestEventStoreServer } from './server.ts';

/**
 * The EventStoreDB adapter over gRPC: against EVENTSTORE_URL (a real server, or the test server
 * `npm run test:esdb` starts), else against a test server of this file's own. The tests that
 * count the server's subscriptions or restart it use one of their own.
 */
let own: TestEventStoreServer | null = null;
const url = process.env.EVENTSTORE_URL ?? (own = await startTestEventStoreServer()).url;
t.teardown(() => own?.close());
t.comment(
  `EventStoreDB at ${url}${process.env.EVENTSTORE_URL ? '' : ' (test server of this file)'}`,
);

const prefixed = () => `esdb${randomUUID().replaceAll('-', '')}`;
const ev = (n: number) => ({ type: 'Counted', data: { n } });

const until = async (
  condition: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = 'condition',
) => {
  for (const deadline = Date.now() + ms; !(await condition()); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

await t.test('event store contract on EventStoreDB', async (t) => {
  await eventStoreContract(t, async () => {
    const store = await createEsdbEventStore(url, { streamPrefix: prefixed() });
    return { store, close: () => store.close() };
  });
});

/** Collects what a subscription delivers, and checks it arrives in log order, each event once. */
const collect = (store: EventStore, from: LogPosition, pageSize = 50) => {
  const received: RecordedEvent[] = [];
  const pages: number[] = [];
  const subscription = store.subscribe({ from, pageSize }, async (events) => {
    pages.push(events.length);
    received.push(...events);
    await new Promise((resolve) => setTimeout(resolve, 1));
  });
  return { received, pages, subscription };
};

const inOrderOnce = (t: Test, received: RecordedEvent[], expected: number[]) => {
  t.same(
    received.map((e) => e.data.n),
    expected,
    'every event once, in order: no gap, no duplicate',
  );
  t.ok(
    received.every((e, i) => i === 0 || comparePositions(e.position, received[i - 1].position) > 0),
    'positions strictly increase',
  );
};

await t.test(
  'a subscription started mid-log catches up and goes live without a gap or a duplicate',
  async (t) => {
    const store = await createEsdbEventStore(url, { streamPrefix: prefixed() });
    t.teardown(() => store.close());
    const streams = Array.from({ length: 5 }, () => `load-${randomUUID()}`);
    const positions: LogPosition[] = [];
    for (let n = 0; n < 300; n++)
      positions.push(
        (await store.append(streams[n % 5], [ev(n)], { expectedRevision: 'any', metadata: meta() }))
          .position,
      );
    // From the 150th event: it and those before are the subscriber's checkpoint.
    const { received, pages, subscription } = collect(store, positions[149], 40);
    // Appends go on while it catches up, and after it has gone live.
    for (let n = 300; n < 400; n++)
      await store.append(streams[n % 5], [ev(n)], { expectedRevision: 'any', metadata: meta() });
    await until(() => received.length >= 250, 15_000, '250 events');
    for (let n = 400; n < 450; n++)
      await store.append(streams[n % 5], [ev(n)], { expectedRevision: 'any', metadata: meta() });
    await until(() => received.length >= 300, 15_000, '300 events');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await subscription.close();
    inOrderOnce(
      t,
      received,
      Array.from({ length: 300 }, (_, i) => 150 + i),
    );
    t.ok(Math.max(...pages) <= 40, 'pages no larger than asked');
  },
);

await t.test('subscribers that have caught up share one subscription to $all', async (t) => {
  // A test server of its own, whose subscriptions it counts.
  const server = await startTestEventStoreServer();
  t.teardown(() => server.close());
  const store = await createEsdbEventStore(server.url, { streamPrefix: prefixed() });
  t.teardown(() => store.close());
  const stream = `load-${randomUUID()}`;
  await store.append(stream, [ev(0)], { expectedRevision: 'no_stream', metadata: meta() });
  const openBefore = server.subscriptionsToAll.filter((s) => s.open).length;
  const subscribers = Array.from({ length: 10 }, () => collect(store, START));
  const last = await store.append(stream, [ev(1)], { expectedRevision: 0, metadata: meta() });
  await until(
    () => subscribers.every(({ received }) => received.length === 2),
    10_000,
    'ten subscribers to catch up',
  );
  // Each read on its own from its checkpoint, then joined the shared one.
  await until(
    () => server.subscriptionsToAll.filter((s) => s.open).length === openBefore + 1,
    5000,
    'one open subscription',
  );
  t.equal(
    server.subscriptionsToAll.filter((s) => s.open).length - openBefore,
    1,
    'ten subscribers, one subscription to $all',
  );
  await store.append(stream, [ev(2), ev(3)], { expectedRevision: 1, metadata: meta() });
  await until(
    () => subscribers.every(({ received }) => received.length === 4),
    10_000,
    'live events to all ten',
  );
  for (const { received, subscription } of subscribers) {
    await subscription.close();
    t.same(
      received.map((e) => e.data.n),
      [0, 1, 2, 3],
    );
  }
  t.ok(
    comparePositions(subscribers[0].received[1].position, last.position) === 0,
    "the append's position is its event's",
  );
});

await t.test(
  'a server restart during a subscription resumes from the last checkpoint',
  async (t) => {
    const server = await startTestEventStoreServer();
    t.teardown(() => server.close());
    const errors: unknown[] = [];
    const store = await createEsdbEventStore(server.url, {
      streamPrefix: 'restart-',
      retryMs: 50,
      onError: (error) => errors.push(error),
    });
    t.teardown(() => store.close());
    const stream = `load-${randomUUID()}`;
    for (let n = 0; n < 40; n++)
      await store.append(stream, [ev(n)], { expectedRevision: n - 1, metadata: meta() });
    // Another tenant's events after them: the filtered subscription skips them with checkpoints.
    const other = await createEsdbEventStore(server.url, { streamPrefix: 'other-' });
    for (let n = 0; n < 100; n++)
      await other.append(`load-${randomUUID()}`, [ev(n)], {
        expectedRevision: 'no_stream',
        metadata: meta(),
      });
    await other.close();
    const { received, subscription } = collect(store, START, 10);
    await until(() => received.length >= 40, 10_000, 'the first 40 events');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = server.subscriptionsToAll.length;
    const lastOther = server.log.events.at(-1)!.position;

    await server.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server.start();
    await until(() => errors.length > 0, 5000, 'the error to be reported');
    for (let n = 40; n < 60; n++)
      await store.append(stream, [ev(n)], { expectedRevision: n - 1, metadata: meta() });
    await until(() => received.length >= 60, 15_000, 'the events after the restart');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await subscription.close();

    inOrderOnce(
      t,
      received,
      Array.from({ length: 60 }, (_, i) => i),
    );
    t.ok(errors.length > 0, `the lost connection went to onError (${errors.length} errors)`);
    const resumed = server.subscriptionsToAll
      .slice(before)
      .filter((s) => typeof s.from === 'bigint') as { from: bigint }[];
    t.ok(resumed.length > 0, 'resubscribed from a position, not from the start');
    t.ok(
      resumed.every((s) => s.from >= lastOther),
      "from the last checkpoint: past the other tenant's events it had skipped",
    );
  },
);

await t.test(
  'appends: expected revision, idempotent event ids, and the $all position of the last event',
  async (t) => {
    const store = await createEsdbEventStore(url, { streamPrefix: prefixed() });
    t.teardown(() => store.close());
    const stream = `load-${randomUUID()}`;
    const first = [
      { id: randomUUID(), ...ev(1) },
      { id: randomUUID(), ...ev(2) },
    ];
    const written = await store.append(stream, first, {
      expectedRevision: 'no_stream',
      metadata: meta(),
    });
    const retried = await store.append(stream, first, {
      expectedRevision: 'no_stream',
      metadata: meta(),
    });
    t.same(
      retried,
      written,
      'a retried append with the same ids answers as the first, writing nothing',
    );
    const again = await store.append(stream, first, { expectedRevision: 'any', metadata: meta() });
    t.same(again, written, 'with any expected revision too');
    const { events } = await store.readStream(stream);
    t.same(
      events.map((e) => e.id),
      first.map((e) => e.id),
      'the events once, with the given ids',
    );
    t.same(
      events[1].position,
      written.position,
      "the position returned is the last event's in $all",
    );
    const page = await store.readAll({ from: START, limit: 10_000 });
    t.equal(page.filter((e) => e.streamId === stream).length, 2, '$all holds them once');
    // Behind the stream with the event at the next revision, then one it does not hold: a conflict, not a repeat.
    await t.rejects(
      store.append(stream, [first[1], { id: randomUUID(), ...ev(3) }], {
        expectedRevision: 0,
        metadata: meta(),
      }),
      { name: 'WrongExpectedRevisionError' },
      'a partial repeat is a conflict',
    );
    t.equal((await store.readStream(stream)).revision, 1, 'nothing written');
  },
);

await t.test(
  'an append whose answer was lost is retried with the same event ids and written once',
  async (t) => {
    // A test server of its own, told to lose answers.
    const server = await startTestEventStoreServer();
    t.teardown(() => server.close());
    const errors: unknown[] = [];
    const store = await createEsdbEventStore(server.url, {
      streamPrefix: prefixed(),
      retryMs: 20,
      onError: (error) => errors.push(error),
    });
    t.teardown(() => store.close());
    const stream = `load-${randomUUID()}`;
    await store.append(stream, [ev(0)], { expectedRevision: 'no_stream', metadata: meta() });
    for (const expectedRevision of [0, 'any', 'stream_exists'] as const) {
      server.loseAppendReplies(1);
      const { revision: before } = await store.readStream(stream);
      const result = await store.append(stream, [ev(1), ev(2)], {
        expectedRevision: expectedRevision === 0 ? before : expectedRevision,
        metadata: meta(),
      });
      const { events, revision } = await store.readStream(stream);
      t.equal(
        revision,
        before + 2,
        `expected revision ${expectedRevision}: the two events written once`,
      );
      t.equal(
        result.nextExpectedRevision,
        revision,
        "the answer of the retry is the first write's",
      );
      t.same(result.position, events.at(-1)!.position);
    }
    t.equal(errors.length, 3, 'each lost answer went to onError');
    // A server gone for longer than the retries: the caller gets the error, and nothing was written.
    const { revision: before } = await store.readStream(stream);
    await server.stop();
    const error = await store
      .append(stream, [ev(3)], { expectedRevision: before, metadata: meta() })
      .catch((caught) => caught);
    t.ok(isTransient(error), `unavailable after the retries: ${String(error)}`);
    await server.start();
    t.equal((await store.readStream(stream)).revision, before, 'nothing written');
  },
);

await t.test('the real client against the server: reads, filters, errors', async (t) => {
  const client = EventStoreDBClient.connectionString(url);
  t.teardown(() => client.dispose());
  const prefix = prefixed();
  const stream = `${prefix}-a`;
  const result = await client.appendToStream(
    stream,
    [1, 2, 3].map((n) => jsonEvent({ type: 'Counted', data: { n } })),
    { expectedRevision: 'no_stream' },
  );
  t.equal(result.nextExpectedRevision, 2n);
  t.ok(result.position, 'a position');
  await client.appendToStream(`${prefix}-b`, [jsonEvent({ type: 'Counted', data: { n: 4 } })], {
    expectedRevision: 'any',
  });

  const wrong = await client
    .appendToStream(stream, [jsonEvent({ type: 'Counted', data: { n: 9 } })], {
      expectedRevision: 0n,
    })
    .catch((error) => error);
  t.ok(wrong instanceof WrongExpectedVersionError, 'wrong expected version');
  t.equal(wrong.expectedVersion, 0n);
  t.equal(wrong.actualVersion, 2n);
  const missing = await client
    .appendToStream(`${prefix}-none`, [jsonEvent({ type: 'Counted', data: {} })], {
      expectedRevision: 'stream_exists',
    })
    .catch((error) => error);
  t.equal(missing.actualVersion, 'no_stream', 'no stream');
  t.equal(missing.expectedVersion, 'stream_exists');
  const exists = await client
    .appendToStream(stream, [jsonEvent({ type: 'Counted', data: {} })], {
      expectedRevision: 'no_stream',
    })
    .catch((error) => error);
  t.equal(exists.expectedVersion, 'no_stream');
  t.equal(exists.actualVersion, 2n);

  const revisions = async (read: AsyncIterable<{ event?: { revision: bigint } }>) => {
    const out: bigint[] = [];
    for await (const { event } of read) out.push(event!.revision);
    return out;
  };
  t.same(await revisions(client.readStream(stream)), [0n, 1n, 2n], 'a stream forwards');
  t.same(
    await revisions(client.readStream(stream, { direction: BACKWARDS, fromRevision: END })),
    [2n, 1n, 0n],
    'backwards from the end',
  );
  t.same(
    await revisions(
      client.readStream(stream, { direction: BACKWARDS, fromRevision: 1n, maxCount: 5 }),
    ),
    [1n, 0n],
    'backwards from a revision',
  );
  t.same(
    await revisions(client.readStream(stream, { fromRevision: 1n, maxCount: 1 })),
    [1n],
    'forwards from a revision, counted',
  );
  t.ok(
    (await revisions(client.readStream(`${prefix}-none`)).catch((error) => error)) instanceof
      StreamNotFoundError,
    'stream not found',
  );

  const all: { streamId: string; position: bigint }[] = [];
  for await (const { event } of client.readAll({ fromPosition: ESDB_START }))
    if (event?.streamId.startsWith(prefix))
      all.push({ streamId: event.streamId, position: event.position.commit });
  t.same(
    all.map((e) => e.streamId),
    [stream, stream, stream, `${prefix}-b`],
    '$all forwards',
  );
  const backwards: string[] = [];
  for await (const { event } of client.readAll({
    fromPosition: END,
    direction: BACKWARDS,
    maxCount: 50,
  }))
    if (event?.streamId.startsWith(prefix)) backwards.push(event.streamId);
  t.same(backwards, [`${prefix}-b`, stream, stream, stream], '$all backwards');
  let systemSeen = false;
  for await (const { event } of client.readAll({ fromPosition: ESDB_START, direction: FORWARDS }))
    if (event?.type.startsWith('$')) systemSeen = true;
  t.ok(systemSeen, '$all holds system events');

  // A filtered subscription from the start: only the prefix's streams, checkpoints, caught up, then live.
  const checkpoints: bigint[] = [];
  const seen: string[] = [];
  let caughtUp = false;
  const subscription = client.subscribeToAll({
    fromPosition: ESDB_START,
    filter: streamNameFilter({
      prefixes: [prefix],
      checkpointReached: async (_s, position) => {
        checkpoints.push(position.commit);
      },
    }),
  });
  subscription.on('data', ({ event }) => seen.push(event!.streamId));
  subscription.on('caughtUp', () => {
    caughtUp = true;
  });
  await until(() => caughtUp, 5000, 'caught up');
  t.same(seen, [stream, stream, stream, `${prefix}-b`], "the prefix's events, in order");
  t.ok(
    checkpoints.length > 0 && checkpoints.at(-1)! >= all.at(-1)!.position,
    'a checkpoint at the end of the catch-up',
  );
  await client.appendToStream(`${prefix}-c`, [jsonEvent({ type: 'Counted', data: {} })]);
  await client.appendToStream(`other-${prefix}`, [jsonEvent({ type: 'Counted', data: {} })]);
  await until(() => seen.length === 5, 5000, 'the live event');
  t.equal(seen.at(-1), `${prefix}-c`, 'live, filtered');
  await subscription.unsubscribe();

  // Without system events, from a position: after it.
  const types: string[] = [];
  const fromLast = client.subscribeToAll({
    fromPosition: { commit: all[2].position, prepare: all[2].position },
    filter: excludeSystemEvents(),
  });
  fromLast.on('data', ({ event }) => {
    if (event!.streamId.startsWith(prefix)) types.push(event!.streamId);
  });
  await until(() => types.length >= 2, 5000, 'events after the position');
  t.same(types, [`${prefix}-b`, `${prefix}-c`], 'a subscription starts after its position');
  await fromLast.unsubscribe();
});
