// @postgres: the one-time listing of older offers, recorded in the database
/**
 * A log written before loads listed their offers: the first start that runs the background work
 * lists each older offer on its load once and records that it did; an empty log stays empty.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { listedOfferIds, loadOffersStream } from '../../domain/offers/loadOffers.ts';
import { offerStream } from '../../domain/offers/offer.types.ts';
import { createPostgresEventStore } from '../eventstore/postgres/postgresEventStore.ts';
import { migrateToLatest } from '../../migrations/index.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { readableThrough } from '../testing/readableHead.ts';
import { openTestDatabase } from '../testing/testDatabase.ts';
import { listLoadOffersOnce, OFFERS_LISTED_STREAM } from './listLoadOffers.ts';

const database = await openTestDatabase();
t.teardown(() => database.close());
await migrateToLatest(database.db);
const store = await createPostgresEventStore(database);
t.teardown(() => store.close());
const now = () => new Date().toISOString();
const meta = () => ({
  userId: null,
  organizationId: null,
  correlationId: null,
  causationId: null,
  at: now(),
});

t.test('an empty log: nothing listed, nothing recorded', async (t) => {
  t.same(await listLoadOffersOnce(store, now()), { listed: 0, offers: 0 });
  t.equal(
    (await store.readStream(OFFERS_LISTED_STREAM)).revision,
    -1,
    'no marker: the log is still empty',
  );
  t.equal((await store.readAll({ limit: 10 })).length, 0);
});

t.test('older offers are listed on their load once', async (t) => {
  const loadId = randomUUID();
  const offers = [randomUUID(), randomUUID()];
  let last: LogPosition | null = null;
  for (const offerId of offers) {
    ({ position: last } = await store.append(
      offerStream(offerId),
      [
        {
          type: 'ProposalSubmitted',
          data: {
            proposalId: offerId,
            loadId,
            loadGuid: 'L-1',
            shipperOrganizationId: randomUUID(),
            carrierOrganizationId: randomUUID(),
            submittedBy: randomUUID(),
            price: 1500,
            message: '',
            eldTruckName: null,
            submittedAt: now(),
          },
        },
      ],
      { expectedRevision: 'no_stream', metadata: meta() },
    ));
  }
  // On a PostgreSQL server shared with other test files, a transaction in flight elsewhere holds the readable head back a moment.
  await readableThrough(store, last!);
  t.same(await listLoadOffersOnce(store, now()), { listed: 2, offers: 2 });
  t.same(
    listedOfferIds((await store.readStream(loadOffersStream(loadId))).events as never).sort(),
    [...offers].sort(),
    'both offers are on the load',
  );
  t.equal(await listLoadOffersOnce(store, now()), null, 'a second start does nothing');
  t.equal(
    (await store.readStream(loadOffersStream(loadId))).events.length,
    2,
    'and lists nothing twice',
  );
});
