import t from 'tap';
import { isObservedTimeInWindow, observedTime } from './observedTime.ts';

const now = Date.parse('2026-11-20T12:00:00.000Z');
const schema = observedTime('recordedAt', () => now);
const at = (offsetMs: number) => new Date(now + offsetMs).toISOString();
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

t.test(
  'the window runs from 7 days before the clock to 5 minutes after it, both ends included',
  async (t) => {
    for (const offset of [0, -7 * DAY, 5 * MINUTE, -6 * DAY, 4 * MINUTE])
      t.ok(isObservedTimeInWindow(now + offset, now), `${offset / MINUTE} minutes`);
    for (const offset of [-7 * DAY - 1, 5 * MINUTE + 1, -8 * DAY, 10 * MINUTE])
      t.notOk(isObservedTimeInWindow(now + offset, now), `${offset / MINUTE} minutes`);
    t.notOk(isObservedTimeInWindow(Number.NaN, now), 'no time at all');
  },
);

t.test(
  'the schema answers the canonical UTC time, or the field named in its message',
  async (t) => {
    t.equal(
      schema.parse('2026-11-20T06:30:00-05:00'),
      '2026-11-20T11:30:00.000Z',
      'an offset is kept as the same instant',
    );
    t.equal(schema.parse(at(-6 * DAY)), at(-6 * DAY));
    const refused = (value: unknown) =>
      schema.safeParse(value).error?.issues.map((issue) => issue.message);
    t.same(refused('0000-01-01T00:00:00Z'), [
      'recordedAt must be within the last 7 days and not in the future',
    ]);
    t.same(refused(at(-8 * DAY)), [
      'recordedAt must be within the last 7 days and not in the future',
    ]);
    t.same(refused(at(10 * MINUTE)), [
      'recordedAt must be within the last 7 days and not in the future',
    ]);
    t.same(refused('+275760-09-13T00:00:00Z'), ['recordedAt must be an ISO 8601 time']);
    t.same(refused('2026-11-20 12:00'), ['recordedAt must be an ISO 8601 time'], 'no T, no offset');
    t.same(refused(1_700_000_000_000), ['recordedAt must be an ISO 8601 time'], 'not a string');
  },
);
