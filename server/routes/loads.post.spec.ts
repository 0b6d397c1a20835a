// @postgres: the shipper's table and the saved locations read in SQL
import t from 'tap';
import { loadStream } from '../../domain/loads/load.types.ts';
import { savedLocationsStream } from '../../domain/loads/savedLocation.ts';
import { Role } from '../../domain/permissions.ts';
import { member, organization } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { CHICAGO, GARY, inHours, INDIANAPOLIS, loadBody, stop } from '../testing/loadBodies.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * POST /api/loads: who may post, the validation messages of a load, and what a posted load
 * appends and shows at once: its row in the shipper's table (and nobody else's) and the facility
 * saved for the next load.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);

t.test('refused posts append nothing', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const driver = await member(app, platform, carrier.organizationId!, Role.Driver);
  const pending = await organization(app, platform, 'Shipper', { status: 1 });
  const events = await watchEvents(platform.store);

  t.equal((await as(null).post('/api/loads', loadBody())).status, 401, 'anonymous: 401');
  t.equal(
    (await as(carrier).post('/api/loads', loadBody())).status,
    403,
    'a carrier cannot post loads',
  );
  t.equal((await as(driver).post('/api/loads', loadBody())).status, 403, 'nor can a driver');
  const waiting = await as(pending).post('/api/loads', loadBody());
  t.equal(waiting.status, 403, 'a Pending organization cannot post loads');
  t.match(waiting.body.message, /not active/);

  const past = await as(shipper).post(
    '/api/loads',
    loadBody({ pickupTimestampStart: inHours(-2), expiration: inHours(-3) }),
  );
  t.equal(past.status, 400);
  t.ok(
    past.body.errors.some(
      (error: { path: string; message: string }) =>
        error.path === 'pickupTimestampStart' &&
        error.message === "Start can't be before current date and time.",
    ),
    'a pickup in the past: its message on pickupTimestampStart',
  );
  const noEquipment = await as(shipper).post('/api/loads', loadBody({ loadEquipment: [] }));
  t.equal(noEquipment.status, 400);
  t.ok(
    noEquipment.body.errors.some(
      (error: { message: string }) => error.message === 'Please select at least one load equipment',
    ),
    'no equipment: its message',
  );
  await events.expect(t, [], { message: 'the refusals appended nothing' });
  t.equal((await as(shipper).get('/api/loads/shipper')).body.total, 0, 'no row either');
});

t.test(
  "a posted load: its events, its row in the shipper's table at once, its saved facility",
  async (t) => {
    const shipper = await organization(app, platform, 'Shipper');
    const otherShipper = await organization(app, platform, 'Shipper');
    const events = await watchEvents(platform.store);

    const posted = await as(shipper).post(
      '/api/loads',
      loadBody({
        locations: [
          stop(CHICAGO, 1, 'Acme Paper Mill', { saveLocation: true }),
          stop(GARY, 3, 'Gary Cross Dock'),
          stop(INDIANAPOLIS, 4, 'Hoosier Print Works'),
        ],
      }),
    );
    t.equal(posted.status, 201, posted.text);
    const { id: loadId, guid } = posted.body;
    t.match(guid, /^L-\d{6}$/);
    await events.expect(t, [
      {
        type: 'LoadPosted',
        stream: loadStream(loadId),
        data: {
          loadId,
          guid,
          shipperOrganizationId: shipper.organizationId,
          details: { weight: 42000, commodity: 'Paper' },
        },
        metadata: { userId: shipper.userId, organizationId: shipper.organizationId },
      },
      {
        type: 'LocationSaved',
        stream: savedLocationsStream(shipper.organizationId!),
        data: { organizationId: shipper.organizationId, location: { name: 'Acme Paper Mill' } },
      },
    ]);

    const rows = (await as(shipper).get('/api/loads/shipper')).body;
    t.equal(rows.total, 1, 'the new load is in the list at once (read-your-writes)');
    t.match(rows.data[0], {
      id: loadId,
      guid,
      status: 1,
      statusName: 'Created',
      proposals: 0,
      newProposals: 0,
      stopsCount: 3,
    });
    t.same(rows.data[0].actions, [1, 2, 3, 4, 11, 12]);
    t.equal(
      (await as(otherShipper).get('/api/loads/shipper')).body.total,
      0,
      'another shipper sees none of it',
    );

    t.match((await as(shipper).get('/api/loads/list/getSavedLocations')).body, [
      {
        name: 'Acme Paper Mill',
        address: 'Chicago, IL',
        contactPhone: '(312) 555-0101',
        locationType: 1,
      },
    ]);
    t.same(
      (await as(otherShipper).get('/api/loads/list/getSavedLocations')).body,
      [],
      "another shipper's saved locations: none",
    );
  },
);
