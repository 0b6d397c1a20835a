/**
 * The offers made on a load (stream `loadoffers-<loadId>`): one `ProposalListed` per offer, so a
 * step that must reach every offer of a load (declining the others once one is accepted, or all of
 * them when the load is canceled) reads it from the log, never from a read model that may lag.
 * The list only grows and an id listed twice counts once, so it is appended without an expected
 * revision.
 */
import type { Event } from '../shared/event.ts';

export const loadOffersStream = (loadId: string): string => `loadoffers-${loadId}`;

export type ProposalListed = Event<
  'ProposalListed',
  { loadId: string; proposalId: string; listedAt: string }
>;

/** The offer ids of a load, in the order they were first listed. */
export const listedOfferIds = (
  events: readonly { type: string; data: Record<string, unknown> }[],
): string[] => [
  ...new Set(
    events
      .filter((event) => event.type === 'ProposalListed')
      .map((event) => String(event.data.proposalId)),
  ),
];
