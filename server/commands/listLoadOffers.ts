/**
 * Lists on their load the offers a log holds from before loads listed their offers
 * (`loadoffers-<loadId>`): every load's first ProposalSubmitted of each offer gets its
 * ProposalListed. Idempotent: an offer already listed is left alone, so it can run any number of times.
 */
import {
  listedOfferIds,
  loadOffersStream,
  type ProposalListed,
} from '../../domain/offers/loadOffers.ts';
import { START, type EventStore, type LogPosition } from '../eventstore/eventStore.ts';
import { metadataOf } from './caller.ts';

export async function listLoadOffers(
  store: EventStore,
  now: string,
  pageSize = 1000,
): Promise<{ listed: number; offers: number }> {
  const offers = new Map<string, Set<string>>();
  let from: LogPosition = START;
  for (;;) {
    const page = await store.readAll({ from, limit: pageSize });
    for (const event of page) {
      if (event.type !== 'ProposalSubmitted') continue;
      const { loadId, proposalId: offerId } = event.data as { loadId: string; proposalId: string };
      offers.set(loadId, (offers.get(loadId) ?? new Set()).add(offerId));
    }
    if (page.length < pageSize) break;
    from = page[page.length - 1]!.position;
  }
  let listed = 0;
  for (const [loadId, offerIds] of offers) {
    const known = new Set(
      listedOfferIds((await store.readStream(loadOffersStream(loadId))).events),
    );
    const missing: ProposalListed[] = [...offerIds]
      .filter((id) => !known.has(id))
      .map((offerId) => ({
        type: 'ProposalListed',
        data: { loadId, proposalId: offerId, listedAt: now },
      }));
    if (missing.length === 0) continue;
    await store.append(loadOffersStream(loadId), missing, {
      expectedRevision: 'any',
      metadata: metadataOf(null, now, loadId),
    });
    listed += missing.length;
  }
  return { listed, offers: [...offers.values()].reduce((sum, ids) => sum + ids.size, 0) };
}

/** Where the log records that its older offers were listed, so a start does it only once. */
export const OFFERS_LISTED_STREAM = 'maintenance-loadoffers';

/**
 * Once per log, at a start that runs the background work: lists the offers written before loads
 * listed their own, then records that it did (once the log holds any offer). Later starts read one
 * stream and do nothing.
 */
export async function listLoadOffersOnce(
  store: EventStore,
  now: string,
): Promise<{ listed: number } | null> {
  if ((await store.readStream(OFFERS_LISTED_STREAM)).revision >= 0) return null;
  const result = await listLoadOffers(store, now);
  // A log without offers records nothing: it stays as empty as it was (the demo seeds an empty log).
  if (result.offers === 0) return result;
  await store.append(
    OFFERS_LISTED_STREAM,
    [{ type: 'LoadOffersListed', data: { listed: result.listed, at: now } }],
    {
      expectedRevision: 'any',
      metadata: metadataOf(null, now),
    },
  );
  return result;
}
