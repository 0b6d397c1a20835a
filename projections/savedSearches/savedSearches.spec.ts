import t from 'tap';
import { openTestDatabase } from '../../server/testing/testDatabase.ts';
import { readModelSpec } from '../testing.ts';
import { searchDeleted, searchSaved } from '../testing/accounts.ts';
import { carrier, chicago, indianapolis, loadPosted } from '../testing/trade.ts';
import { savedSearchesProjection } from './savedSearches.projection.ts';

const spec = readModelSpec(savedSearchesProjection, openTestDatabase);
t.teardown(spec.close);

const lane = 'abab1111-2222-4333-8444-555566667777';
const anywhere = 'abab1111-2222-4333-8444-555566667778';
const saved = '2026-11-30T10:00:00.000Z';

t.test('a saved search keeps its origin, destination and equipment', async () => {
  await spec
    .given(
      searchSaved(lane, {
        at: saved,
        name: 'Chicago to Indy',
        origin: { ...chicago, radius: 50 },
        destination: { ...indianapolis, radius: 100 },
        equipment: [15, 3],
      }),
    )
    .expectRows('saved_searches_view', [
      {
        id: lane,
        organization_id: carrier,
        name: 'Chicago to Indy',
        origin_latitude: chicago.latitude,
        origin_longitude: chicago.longitude,
        origin_radius: 50,
        destination_latitude: indianapolis.latitude,
        destination_radius: 100,
        equipment: [15, 3],
        created_at: saved,
      },
    ]);
});

t.test('a search with no criteria matches everything: its columns are empty', async () => {
  await spec
    .given(searchSaved(anywhere, { at: saved, name: 'Anything' }))
    .expectRows('saved_searches_view', [
      {
        name: 'Anything',
        origin_latitude: null,
        origin_radius: null,
        destination_longitude: null,
        equipment: [],
      },
    ]);
});

t.test('a deleted search is gone; saved twice, the first stays', async () => {
  await spec
    .given(
      searchSaved(lane, { at: saved, name: 'First' }),
      searchSaved(lane, { at: saved, name: 'Second' }),
      searchSaved(anywhere, { at: saved, name: 'Anything' }),
      searchDeleted(anywhere, { at: saved }),
    )
    .expectRows('saved_searches_view', [{ id: lane, name: 'First' }]);
});

t.test('a load posted saves no search', async () => {
  await spec.given(loadPosted(lane, { at: saved })).expectRows('saved_searches_view', []);
});
