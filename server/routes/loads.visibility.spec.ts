import t from 'tap';
import { Role } from '../../domain/permissions.ts';
import { member, organization } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester } from '../testing/http.ts';
import { CHICAGO, GARY, INDIANAPOLIS, loadBody, stop } from '../testing/loadBodies.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * Who reads one load: its shipper in full; every carrier while it is on the marketplace, without
 * the facility contacts; the carrier whose offer was accepted, with them; other shippers get 404
 * and drivers 403 (docs/domain.md "Marketplace visibility").
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);

t.test('an open load: contacts for its shipper only; other tenants get 404', async (t) => {
  const shipper = await organization(app, platform, 'Shipper');
  const otherShipper = await organization(app, platform, 'Shipper');
  const carrier = await organization(app, platform, 'Carrier');
  const driver = await member(app, platform, carrier.organizationId!, Role.Driver);
  const { loadId } = await steps.postLoad(shipper, {
    locations: [
      stop(CHICAGO, 1, 'Acme Paper Mill'),
      stop(GARY, 3, 'Gary Cross Dock'),
      stop(INDIANAPOLIS, 4, 'Hoosier Print Works'),
    ],
  });

  const own = (await as(shipper).get(`/api/loads/${loadId}`)).body;
  t.equal(own.locations[0].contactName, 'Pat Dock');
  t.equal(own.locations.length, 3);
  const asCarrier = await as(carrier).get(`/api/loads/${loadId}`);
  t.equal(asCarrier.status, 200, 'an open load is on the marketplace');
  t.equal(
    asCarrier.body.locations[0].contactName,
    null,
    'facility contacts hidden from carriers before acceptance',
  );
  t.equal(asCarrier.body.contactsHidden, true);
  t.equal((await as(otherShipper).get(`/api/loads/${loadId}`)).status, 404);
  t.equal(
    (await as(driver).get(`/api/loads/${loadId}`)).status,
    403,
    'a driver reads its tours, not loads',
  );
  t.equal(
    (await as(shipper).get('/api/loads/00000000-0000-4000-8000-000000000000')).status,
    404,
    'an unknown load',
  );

  const events = await watchEvents(platform.store);
  const edit = await as(otherShipper).put('/api/loads', { ...loadBody(), loadId });
  t.equal(edit.status, 404, "editing another organization's load: 404");
  await events.expect(t, [], { message: 'the refused edit appended nothing' });
});

t.test(
  'after the acceptance: the winning carrier sees the contacts, the declined one does not, and the load left the marketplace',
  async (t) => {
    const shipper = await organization(app, platform, 'Shipper');
    const carrier = await organization(app, platform, 'Carrier');
    const declined = await organization(app, platform, 'Carrier');
    const { loadId } = await steps.accepted({ shipper, carrier, rivals: [declined] });

    t.equal(
      (await as(carrier).get(`/api/loads/${loadId}`)).body.locations[0].contactName,
      'Pat Dock',
      'the accepted carrier sees the facility contacts',
    );
    const asDeclined = (await as(declined).get(`/api/loads/${loadId}`)).body;
    t.equal(asDeclined.locations[0].contactName, null, 'the declined carrier still does not');
    t.equal(asDeclined.contactsHidden, true);
    t.notOk(
      (await as(declined).get('/api/loads/carrier')).body.data.some(
        (row: { id: string }) => row.id === loadId,
      ),
      'the load left the marketplace',
    );
  },
);
