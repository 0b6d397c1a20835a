// @postgres: the offers of a load read from the log while the read models stand still
/**
 * The steps that reach every offer of a load read the load's list of offers from the log: with the
 * read models stopped (as far behind as they can be), accepting one offer still declines the
 * others, and cancelling the load declines them all.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { GenericStatus } from '../../domain/catalog.ts';
import { permissionsFor, Role, type RoleId } from '../../domain/permissions.ts';
import { offerIdFor } from '../../domain/offers/offer.decide.ts';
import { offerStream, type ProposalSubmitted } from '../../domain/offers/offer.types.ts';
import { loadBodySchema } from '../../domain/schemas/load.schema.ts';
import { organization, type Member } from '../identity/fixtures.ts';
import { loadBody } from '../testing/loadBodies.ts';
import { readableThrough } from '../testing/readableHead.ts';
import { startTestApp } from '../testing/testApp.ts';
import type { Actor, Caller } from './caller.ts';
import { listLoadOffers } from './listLoadOffers.ts';

const { app, platform, close } = await startTestApp();
t.teardown(close);

const shipper = await organization(app, platform, 'Shipper');
const carriers = [
  await organization(app, platform, 'Carrier'),
  await organization(app, platform, 'Carrier'),
  await organization(app, platform, 'Carrier'),
];
const callerOf = (user: Member, roleId: RoleId): Caller => {
  const actor: Actor = {
    userId: user.userId,
    organizationId: user.organizationId,
    roleId,
    permissions: permissionsFor(roleId),
    sessionId: randomUUID(),
  };
  return { actor, requestId: randomUUID() };
};
const asShipper = callerOf(shipper, Role.Shipper);
const asCarriers = carriers.map((carrier) => callerOf(carrier, Role.Carrier));
const { marketplace } = platform;

// From here on no read model moves: a decision that read one would not see the offers below.
await platform.runner.stop();

const loadWithOffers = async (refNumber: string) => {
  const now = new Date().toISOString();
  const { id: loadId } = await marketplace.postLoad(
    asShipper,
    loadBodySchema(now).parse(loadBody({ refNumber })),
    now,
  );
  const ids: string[] = [];
  for (const [index, caller] of asCarriers.entries()) {
    ids.push(
      (
        await marketplace.submitOffer(
          caller,
          loadId,
          { price: 1000 + index, message: '', eldTruckName: null },
          new Date().toISOString(),
        )
      ).id,
    );
  }
  return { loadId, ids };
};
const statusOf = async (offerId: string) => (await marketplace.loadOffer(offerId))?.status;

t.test('accepting an offer declines the other offers, read from the log', async (t) => {
  const { loadId, ids } = await loadWithOffers('LIST-1');
  await marketplace.changeOffer(
    asShipper,
    ids[1]!,
    { status: GenericStatus.Accepted, message: '', price: null },
    new Date().toISOString(),
  );
  t.equal(await statusOf(ids[1]!), GenericStatus.Accepted, 'the accepted offer');
  t.same(
    [await statusOf(ids[0]!), await statusOf(ids[2]!)],
    [GenericStatus.Declined, GenericStatus.Declined],
    'the others are declined',
  );
  t.equal((await marketplace.loadLoad(loadId))?.acceptedProposalId, ids[1]);
});

t.test('cancelling a load declines every open offer, read from the log', async (t) => {
  const { ids } = await loadWithOffers('LIST-2');
  // One offer withdrawn by its carrier stays withdrawn.
  await marketplace.changeOffer(
    asCarriers[2]!,
    ids[2]!,
    { status: GenericStatus.Canceled, message: 'Truck sold', price: null },
    new Date().toISOString(),
  );
  const { loadId } = (await marketplace.loadOffer(ids[0]!))!;
  await marketplace.cancelLoad(asShipper, loadId, 'Plans changed', new Date().toISOString());
  t.same(await Promise.all(ids.map(statusOf)), [
    GenericStatus.Declined,
    GenericStatus.Declined,
    GenericStatus.Canceled,
  ]);
});

t.test(
  'an offer from a log written before loads listed their offers is listed by listLoadOffers, then declined like any other',
  async (t) => {
    const { loadId, ids } = await loadWithOffers('LIST-3');
    const load = (await marketplace.loadLoad(loadId))!;
    const legacy = await organization(app, platform, 'Carrier');
    const offerId = offerIdFor(loadId, legacy.organizationId!);
    const now = new Date().toISOString();
    const submitted: ProposalSubmitted = {
      type: 'ProposalSubmitted',
      data: {
        proposalId: offerId,
        loadId,
        loadGuid: load.guid,
        shipperOrganizationId: load.shipperOrganizationId,
        carrierOrganizationId: legacy.organizationId!,
        submittedBy: legacy.userId,
        price: 900,
        message: '',
        eldTruckName: null,
        submittedAt: now,
      },
    };
    const appended = await platform.store.append(offerStream(offerId), [submitted], {
      expectedRevision: 'no_stream',
      metadata: {
        userId: legacy.userId,
        organizationId: legacy.organizationId,
        correlationId: loadId,
        causationId: null,
        at: now,
      },
    });
    // listLoadOffers reads the log, which shows the offer once no transaction elsewhere can overtake it.
    await readableThrough(platform.store, appended.position);
    t.equal(
      (await listLoadOffers(platform.store, now)).listed,
      1,
      'the unlisted offer is listed, the others were listed already',
    );
    t.equal((await listLoadOffers(platform.store, now)).listed, 0, 'a second run lists nothing');
    await marketplace.changeOffer(
      asShipper,
      ids[0]!,
      { status: GenericStatus.Accepted, message: '', price: null },
      new Date().toISOString(),
    );
    t.equal(await statusOf(offerId), GenericStatus.Declined);
  },
);
