import t from 'tap';
import { facilityDecider, facilityFor, type FacilityPoint } from './facility.ts';
import {
  facilityFigures,
  percentile,
  tagCounts,
  weekdayHourOf,
  type FacilityVisit,
} from './facilityFigures.ts';

const visit = (
  arrivedAt: string | null,
  departedAt: string | null,
  appointmentAt: string | null,
  detention = false,
): FacilityVisit => ({
  arrivedAt,
  departedAt,
  appointmentAt,
  graceMinutes: 30,
  timeZone: 'America/Chicago',
  detention,
});

// 2026-12-07 is a Monday; 14:00 UTC is 08:00 in Chicago (UTC-6 in December).
const mondays = [
  visit('2026-12-07T14:00:00.000Z', '2026-12-07T15:00:00.000Z', '2026-12-07T14:00:00.000Z'),
  visit('2026-12-14T14:10:00.000Z', '2026-12-14T16:10:00.000Z', '2026-12-14T14:00:00.000Z'),
  visit('2026-12-21T14:20:00.000Z', '2026-12-21T17:20:00.000Z', '2026-12-21T13:30:00.000Z', true),
];
const tuesday = visit('2026-12-08T20:00:00.000Z', '2026-12-09T00:00:00.000Z', null, true);
const stillThere = visit('2026-12-28T14:00:00.000Z', null, '2026-12-28T14:00:00.000Z');

t.test('medians, p75, weekday and hour, on-time and detention shares', async (t) => {
  t.same(facilityFigures([...mondays, tuesday, stillThere]), {
    visits: 4,
    timeOnSite: { median: 150, p75: 195 },
    byWeekday: [
      { weekday: 1, hour: 8, median: 120, visits: 3 },
      { weekday: 2, hour: 14, median: null, visits: 1 },
    ],
    // Four arrivals had an appointment: three by it plus the 30 minutes' grace.
    onTimeShare: 0.75,
    onTimeVisits: 4,
    detentionShare: 0.5,
  });
});

t.test('no figure under three visits behind it', async (t) => {
  t.same(facilityFigures(mondays.slice(0, 2)), {
    visits: 2,
    timeOnSite: { median: null, p75: null },
    byWeekday: [{ weekday: 1, hour: 8, median: null, visits: 2 }],
    onTimeShare: null,
    onTimeVisits: 2,
    detentionShare: null,
  });
  t.same(facilityFigures([]).timeOnSite, { median: null, p75: null });
});

t.test('a departure before the arrival is not measured', async (t) => {
  const backwards = visit('2026-12-07T15:00:00.000Z', '2026-12-07T14:00:00.000Z', null);
  t.equal(facilityFigures([...mondays.slice(0, 2), backwards]).visits, 2);
});

t.test('percentiles interpolate; weekday and hour are local', async (t) => {
  t.equal(percentile([60, 120, 180, 240], 0.5), 150);
  t.equal(percentile([60, 120, 180, 240], 0.75), 195);
  t.equal(percentile([], 0.5), null);
  t.same(weekdayHourOf('2026-12-07T05:30:00.000Z', 'America/Chicago'), { weekday: 7, hour: 23 });
  t.same(weekdayHourOf('2026-12-07T05:30:00.000Z', 'UTC'), { weekday: 1, hour: 5 });
});

t.test('tag counts list every tag, each driver once', async (t) => {
  t.same(tagCounts([['parking', 'wait'], ['wait']]), [
    { tag: 'parking', count: 1 },
    { tag: 'restrooms', count: 0 },
    { tag: 'entrance', count: 0 },
    { tag: 'staff', count: 0 },
    { tag: 'wait', count: 2 },
  ]);
});

t.test('a place within 200 m is the nearest facility, else none', async (t) => {
  const facilities: FacilityPoint[] = [
    { id: 'a', latitude: 41.88, longitude: -87.63, founded: 1 },
    { id: 'b', latitude: 41.8815, longitude: -87.63, founded: 2 },
  ];
  t.equal(facilityFor({ latitude: 41.8812, longitude: -87.63 }, facilities), 'b');
  t.equal(facilityFor({ latitude: 41.8801, longitude: -87.63 }, facilities), 'a');
  t.equal(facilityFor({ latitude: 41.9, longitude: -87.63 }, facilities), null);
});

t.test('tags: only the five, a repeat changes nothing; replies need text', async (t) => {
  const tag = (tags: string[]) => ({
    type: 'TagFacility' as const,
    data: {
      facilityId: 'f',
      tags,
      tourId: 't',
      userId: 'u',
      organizationId: 'o',
      now: '2026-12-07T16:00:00.000Z',
    },
  });
  const state = facilityDecider.initialState();
  const [tagged] = facilityDecider.decide(tag(['wait', 'parking', 'wait']), state);
  t.same((tagged!.data as { tags: string[] }).tags, ['parking', 'wait']);
  const after = facilityDecider.evolve(state, tagged!);
  t.same(facilityDecider.decide(tag(['parking', 'wait']), after), []);
  t.throws(() => facilityDecider.decide(tag(['coffee']), state), { errors: [{ path: 'tags.0' }] });
  t.throws(() => facilityDecider.decide(tag([]), state), { errors: [{ path: 'tags' }] });
  t.throws(
    () =>
      facilityDecider.decide(
        {
          type: 'ReplyToFacility',
          data: {
            facilityId: 'f',
            replyId: 'r',
            text: '   ',
            organizationId: 'o',
            userId: 'u',
            now: '2026-12-07T16:00:00.000Z',
          },
        },
        state,
      ),
    { errors: [{ path: 'text' }] },
  );
});
