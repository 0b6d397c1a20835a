/**
 * What the dock routes share (docs/api.md "Pickup release"): the read models they wait for, the
 * hold reasons as sentences, the truck's ELD distance to the pickup, and the e-mails they send.
 */
import type { Kysely } from 'kysely';
import type { HoldReason } from '../../domain/contracts/dockRelease.contract.ts';
import { DOCK_MAX_ELD_MILES } from '../../domain/tours/dockRelease.decide.ts';
import { distanceMiles } from '../../domain/tours/geo.ts';
import type { OpenedTour, PickupHoldReason } from '../../domain/tours/tour.types.ts';
import type { DB } from '../../storage/schema.ts';
import { pickupStopOf } from '../commands/tourDock.ts';

/** The read models the dock routes wait for, so that a link works (or stops) as soon as the call answers. */
export const DOCK_VIEWS = ['dockLinks'];

/** The reasons of a hold, as sentences for the dock and the dispatchers (English, like the e-mails). */
export const holdReasonText: Record<PickupHoldReason, string> = {
  wrong_code: "The code is not the assigned driver's current release code",
  tractor_mismatch: 'The tractor number is not the one the carrier assigned',
  truck_far_away: `The truck's ELD puts it more than ${DOCK_MAX_ELD_MILES} miles from the pickup`,
};
export const reasonsOf = (codes: readonly PickupHoldReason[]): HoldReason[] =>
  codes.map((code) => ({ code, text: holdReasonText[code] }));

export const iso = (value: unknown): string => new Date(value as string).toISOString();
const round1 = (miles: number) => Math.round(miles * 10) / 10;

/** Miles from the truck's last ELD position to the tour's pickup, with when it was recorded; nulls without one. */
export async function eldDistanceOf(
  db: Kysely<DB>,
  tour: OpenedTour,
): Promise<{ miles: number | null; at: string | null }> {
  const pickup = pickupStopOf(tour);
  const last = await db
    .selectFrom('tour_positions_view')
    .select(['latitude', 'longitude', 'recorded_at'])
    .where('tour_id', '=', tour.tourId)
    .where('source', '=', 'eld')
    .orderBy('recorded_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!last || !pickup) return { miles: null, at: null };
  return {
    miles: round1(
      distanceMiles({ latitude: Number(last.latitude), longitude: Number(last.longitude) }, pickup),
    ),
    at: iso(last.recorded_at),
  };
}

/** The e-mail that carries a dock link to the pickup (English, like the product's other e-mails). */
export const dockLinkMail = (
  to: string,
  facts: { link: string; loadGuid: string; carrier: string; expiresAt: string },
) => ({
  to,
  subject: `Pickup release for load ${facts.loadGuid}`,
  text:
    `Hello,\n\nThe truck of ${facts.carrier} will pick up load ${facts.loadGuid} at your dock. ` +
    'Before loading, open this page, check the driver and truck it shows, and enter the 6-digit ' +
    `release code the driver shows you:\n${facts.link}\n\n` +
    `The link works until ${facts.expiresAt.slice(0, 16).replace('T', ' ')} UTC, unless the shipper ends it earlier.`,
});

/** The e-mail that tells a dispatcher the dock held a pickup. */
export const pickupHeldMail = (to: string, facts: { loadGuid: string; reasons: HoldReason[] }) => ({
  to,
  subject: `Pickup held for load ${facts.loadGuid}`,
  text:
    `Hello,\n\nThe pickup dock held load ${facts.loadGuid}:\n` +
    `${facts.reasons.map((reason) => `- ${reason.text}`).join('\n')}\n\n` +
    "The load is not released until the shipper's dispatcher clears or cancels it.",
});
