import t from 'tap';
import {
  DeadlineExceededError,
  StreamNotFoundError,
  UnavailableError,
} from '@eventstore/db-client';
import { START, comparePositions } from '../eventStore.ts';
import {
  addPrefix,
  fromCurrentRevision,
  isSystemEvent,
  isTransient,
  isVisible,
  stripPrefix,
  toEsdbPosition,
  toExpectedRevision,
  toLogPosition,
  toReadPosition,
  toRecordedEvent,
} from './esdbMapping.ts';

const metadata = {
  userId: 'user-1',
  organizationId: 'org-1',
  correlationId: 'load-1',
  causationId: 'request-1',
  at: '2026-11-22T09:00:00.000Z',
};

t.test(
  'positions: commit is the transaction id, prepare the global position, as decimal strings',
  async (t) => {
    const big = 2n ** 63n + 7n;
    t.same(toLogPosition({ commit: 1234n, prepare: 1200n }), {
      transactionId: '1234',
      globalPosition: '1200',
    });
    t.same(
      toLogPosition({ commit: big, prepare: big - 1n }),
      { transactionId: '9223372036854775815', globalPosition: '9223372036854775814' },
      'beyond 2^53 without loss',
    );
    t.same(toEsdbPosition({ transactionId: '9223372036854775815', globalPosition: '42' }), {
      commit: big,
      prepare: 42n,
    });
    const round = { commit: 987654321987654321n, prepare: 987654321987654300n };
    t.same(toEsdbPosition(toLogPosition(round)), round, 'round trip');
    t.ok(
      comparePositions(
        toLogPosition({ commit: 10n, prepare: 9n }),
        toLogPosition({ commit: 10n, prepare: 5n }),
      ) > 0,
      'order by commit, then prepare',
    );
    t.ok(
      comparePositions(
        toLogPosition({ commit: 11n, prepare: 0n }),
        toLogPosition({ commit: 10n, prepare: 99n }),
      ) > 0,
    );
  },
);

t.test('START reads from the beginning; other positions are passed through', async (t) => {
  t.equal(toReadPosition(START), 'start');
  t.equal(toReadPosition({ transactionId: '0', globalPosition: '0' }), 'start');
  t.same(toReadPosition({ transactionId: '500', globalPosition: '480' }), {
    commit: 500n,
    prepare: 480n,
  });
});

t.test('expected revisions', async (t) => {
  t.equal(toExpectedRevision('any'), 'any');
  t.equal(toExpectedRevision('no_stream'), 'no_stream');
  t.equal(toExpectedRevision(-1), 'no_stream', '-1 expects no stream');
  t.equal(toExpectedRevision('stream_exists'), 'stream_exists');
  t.equal(toExpectedRevision(0), 0n, 'a number is the 0-based revision of the last event');
  t.equal(toExpectedRevision(41), 41n);
  t.throws(() => toExpectedRevision(-2), RangeError);
  t.throws(() => toExpectedRevision(1.5), RangeError);
  t.throws(() => toExpectedRevision(Number.NaN), RangeError);
});

t.test('actual revision of a conflict', async (t) => {
  t.equal(fromCurrentRevision('no_stream'), -1);
  t.equal(fromCurrentRevision(0n), 0);
  t.equal(fromCurrentRevision(17n), 17);
  t.equal(fromCurrentRevision(undefined), null, 'unknown');
});

t.test('stream prefix: added on write, stripped on read, foreign streams rejected', async (t) => {
  t.equal(addPrefix('contractabc', 'test-1'), 'contractabctest-1');
  t.equal(stripPrefix('contractabc', 'contractabctest-1'), 'test-1');
  t.equal(stripPrefix('contractabc', 'contractxyztest-1'), null);
  t.equal(stripPrefix('contractabc', 'test-1'), null);
  t.equal(addPrefix('', 'load-1'), 'load-1', 'no prefix');
  t.equal(stripPrefix('', 'load-1'), 'load-1');
  t.equal(
    stripPrefix('p', addPrefix('p', 'p-inner')),
    'p-inner',
    'only the first occurrence is stripped',
  );
});

t.test('system events are never visible; with a prefix only its streams are', async (t) => {
  t.ok(isSystemEvent({ streamId: '$stats-0.0.0.0:2113', type: '$statsCollected' }));
  t.ok(isSystemEvent({ streamId: '$$load-1', type: '$metadata' }), 'stream metadata');
  t.ok(isSystemEvent({ streamId: 'load-1', type: '$>' }), 'a link');
  t.ok(isSystemEvent({ streamId: '$ce-load', type: 'LoadPosted' }), 'in a system stream');
  t.notOk(isSystemEvent({ streamId: 'load-1', type: 'LoadPosted' }));
  t.ok(isVisible('', { streamId: 'load-1', type: 'LoadPosted' }));
  t.notOk(isVisible('', { streamId: '$settings', type: 'update-default-acl' }));
  t.ok(isVisible('run1', { streamId: 'run1load-1', type: 'LoadPosted' }));
  t.notOk(isVisible('run1', { streamId: 'run2load-1', type: 'LoadPosted' }), 'another run');
  t.notOk(isVisible('run1', { streamId: 'load-1', type: 'LoadPosted' }));
  t.notOk(isVisible('run1', { streamId: 'run1load-1', type: '$metadata' }));
});

t.test('a recorded EventStoreDB event becomes ours', async (t) => {
  const event = toRecordedEvent('run1', {
    id: '3f1e2d4c-0000-4000-8000-000000000001',
    streamId: 'run1load-1',
    revision: 2n,
    type: 'LoadPosted',
    data: { loadId: 'load-1' },
    metadata,
    position: { commit: 900n, prepare: 880n },
  });
  t.same(event, {
    id: '3f1e2d4c-0000-4000-8000-000000000001',
    type: 'LoadPosted',
    data: { loadId: 'load-1' },
    metadata,
    streamId: 'load-1',
    streamRevision: 2,
    position: { transactionId: '900', globalPosition: '880' },
  });
  const binary = toRecordedEvent('', {
    id: 'x',
    streamId: 'load-2',
    revision: 0n,
    type: 'LoadPosted',
    data: new TextEncoder().encode('{"n":1}'),
    metadata: new TextEncoder().encode(JSON.stringify(metadata)),
  });
  t.same(binary.data, { n: 1 }, 'JSON in a binary event is decoded');
  t.same(binary.metadata, metadata);
  t.same(binary.position, START, 'a stream read on an old server has no position');
});

t.test(
  'lost connections and timeouts are transient; conflicts and missing streams are not',
  async (t) => {
    t.ok(isTransient(new UnavailableError()), 'unavailable');
    t.ok(isTransient(new DeadlineExceededError()), 'deadline exceeded');
    t.ok(
      isTransient(
        Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 }),
      ),
      'a gRPC error the client passes on as it is',
    );
    t.notOk(isTransient(Object.assign(new Error('3 INVALID_ARGUMENT'), { code: 3 })));
    t.notOk(isTransient(new StreamNotFoundError(undefined, 'load-1')));
    t.notOk(isTransient(new Error('boom')));
    t.notOk(isTransient(null));
  },
);
