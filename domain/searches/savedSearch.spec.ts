import t from 'tap';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { specFor } from '../shared/testing.ts';
import { matchesLane } from './lane.ts';
import { savedSearchDecider } from './savedSearch.decide.ts';
import {
  MAX_SAVED_SEARCHES,
  SEARCH_CRITERIA_MESSAGE,
  SEARCH_EQUIPMENT_MESSAGE,
  SEARCH_LOCATION_MESSAGE,
  SEARCH_NAME_MESSAGE,
  SEARCH_RADIUS_MESSAGE,
  savedSearchBodySchema,
} from './savedSearch.schema.ts';
import type {
  DeleteSearch,
  SavedSearchEvent,
  SaveSearch,
  SearchSaved,
} from './savedSearch.types.ts';

const given = specFor(savedSearchDecider);
const searchId = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const carrier = 'c0ffee00-1111-4222-8333-444455556666';
const otherCarrier = 'deadbeef-1111-4222-8333-444455556666';
const userId = '0e9f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const now = '2026-12-01T10:00:00.000Z';
const later = '2026-12-02T10:00:00.000Z';

const CHICAGO = { latitude: 41.8781, longitude: -87.6298 };
const GARY = { latitude: 41.5934, longitude: -87.3464 };
const INDIANAPOLIS = { latitude: 39.7684, longitude: -86.1581 };
const LOS_ANGELES = { latitude: 34.0522, longitude: -118.2437 };

const save = (changes: Partial<SaveSearch['data']> = {}): SaveSearch => ({
  type: 'SaveSearch',
  data: {
    searchId,
    organizationId: carrier,
    userId,
    name: ' Chicago outbound ',
    origin: { ...CHICAGO, radius: 50 },
    equipment: [5],
    savedCount: 0,
    now,
    ...changes,
  },
});
const remove = (by: string | null = carrier): DeleteSearch => ({
  type: 'DeleteSearch',
  data: { searchId, by, userId, now: later },
});
const saved: SearchSaved = {
  type: 'SearchSaved',
  data: {
    searchId,
    organizationId: carrier,
    userId,
    name: 'Chicago outbound',
    origin: { ...CHICAGO, radius: 50 },
    equipment: [5],
    at: now,
  },
};
const deleted: SavedSearchEvent = {
  type: 'SearchDeleted',
  data: { searchId, organizationId: carrier, userId, at: later },
};

t.test('saving a search', async (t) => {
  t.test('records it with a trimmed name and only the criteria given', async () =>
    given([])
      .when(save({ destination: undefined }))
      .then([saved]),
  );
  t.test('refuses a blank name', async () =>
    given([])
      .when(save({ name: '   ' }))
      .thenThrows(ValidationError, new RegExp(SEARCH_NAME_MESSAGE)),
  );
  t.test('refuses a search with no criterion at all', async () =>
    given([])
      .when(save({ origin: undefined, equipment: [] }))
      .thenThrows(ValidationError, new RegExp(SEARCH_CRITERIA_MESSAGE)),
  );
  t.test(`refuses the ${MAX_SAVED_SEARCHES + 1}st search of an organization`, async () => {
    given([])
      .when(save({ savedCount: MAX_SAVED_SEARCHES }))
      .thenThrows(ConflictError, /at most 50/);
    given([])
      .when(save({ savedCount: MAX_SAVED_SEARCHES - 1 }))
      .then([saved]);
  });
  t.test('refuses saving the same search twice', async () =>
    given([saved]).when(save()).thenThrows(ConflictError),
  );
});

t.test('deleting a search', async (t) => {
  t.test('by its organization', async () => given([saved]).when(remove()).then([deleted]));
  t.test('by a Superadmin', async () => given([saved]).when(remove(null)).then([deleted]));
  t.test("another organization's search is not found", async () =>
    given([saved])
      .when(remove(otherCarrier))
      .thenThrows(NotFoundError, /not found/),
  );
  t.test('an unknown search is not found', async () =>
    given([]).when(remove()).thenThrows(NotFoundError),
  );
  t.test('a deleted search is not found', async () =>
    given([saved, deleted]).when(remove()).thenThrows(NotFoundError),
  );
});

t.test('the POST searches body', async (t) => {
  const messages = (body: unknown) => {
    const result = savedSearchBodySchema.safeParse(body);
    return result.success
      ? []
      : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };
  t.same(messages({ origin: { ...CHICAGO, radius: 50 } }), [`name: ${SEARCH_NAME_MESSAGE}`]);
  t.same(messages({ name: 'Anything' }), [`origin: ${SEARCH_CRITERIA_MESSAGE}`]);
  t.same(messages({ name: 'Anything', origin: null, destination: null, equipment: [] }), [
    `origin: ${SEARCH_CRITERIA_MESSAGE}`,
  ]);
  t.same(messages({ name: 'Radius', origin: { ...CHICAGO, radius: 75 } }), [
    `origin.radius: ${SEARCH_RADIUS_MESSAGE}`,
  ]);
  t.equal(SEARCH_RADIUS_MESSAGE, 'Please choose a radius of 50, 100, 150 or 200 miles');
  t.same(messages({ name: 'Nowhere', destination: { latitude: 0, longitude: 0, radius: 50 } }), [
    `destination.latitude: ${SEARCH_LOCATION_MESSAGE}`,
  ]);
  t.same(
    messages({ name: 'Off the map', destination: { latitude: 91, longitude: 0, radius: 50 } }),
    [`destination.latitude: ${SEARCH_LOCATION_MESSAGE}`],
  );
  t.same(messages({ name: 'Spaceship', equipment: [9999] }), [
    `equipment.0: ${SEARCH_EQUIPMENT_MESSAGE}`,
  ]);
  t.same(
    savedSearchBodySchema.parse({ name: ' Vans ', origin: null, equipment: [5, 1, 5] }),
    { name: 'Vans', equipment: [1, 5] },
    'absent criteria left out, equipment sorted once each',
  );
});

t.test('a lane matches a load', async (t) => {
  const load = { stops: [CHICAGO, GARY, INDIANAPOLIS], equipment: [5, 7] };
  t.ok(
    matchesLane({ origin: { ...CHICAGO, radius: 50 } }, load),
    'first stop inside the origin circle',
  );
  t.ok(
    matchesLane(
      { origin: { ...GARY, radius: 50 }, destination: { ...INDIANAPOLIS, radius: 50 } },
      load,
    ),
    'Gary is 20 miles from Chicago',
  );
  t.notOk(
    matchesLane({ origin: { ...INDIANAPOLIS, radius: 150 } }, load),
    'Chicago is about 165 miles from Indianapolis',
  );
  t.ok(matchesLane({ origin: { ...INDIANAPOLIS, radius: 200 } }, load), 'but within 200');
  t.notOk(
    matchesLane({ destination: { ...GARY, radius: 100 } }, load),
    'the destination is the last stop, not an extra one',
  );
  t.ok(matchesLane({ equipment: [7, 9] }, load), 'any one trailer type in common');
  t.notOk(matchesLane({ equipment: [1] }, load), 'no trailer type in common');
  t.notOk(
    matchesLane({ origin: { ...CHICAGO, radius: 50 }, equipment: [1] }, load),
    'every criterion must hold',
  );
  t.notOk(matchesLane({ origin: { ...LOS_ANGELES, radius: 200 } }, load));
});
