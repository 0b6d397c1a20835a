/**
 * The demo's invoices, so that a newcomer sees them at once: on shipper1's delivered shipments the
 * carrier's invoice, drafted from the agreed price and the approved claims as at a confirmed
 * delivery (the demo's deliveries were recorded before proofs existed, so the draft is made
 * directly): the first submitted and waiting for the shipper, the second approved and its payment
 * scheduled a week ahead.
 */
import { Role } from '../../domain/catalog.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import type { Platform } from '../platform.ts';
import type { DemoUser } from './demoUsers.ts';

const DAY = 24 * 60 * 60 * 1000;

export async function seedDeliveredInvoices(
  platform: Platform,
  shipments: { delivered: string[]; users: DemoUser[]; shipper: DemoUser },
): Promise<LogPosition | null> {
  const { invoices, marketplace } = platform;
  const now = () => new Date().toISOString();
  let last: LogPosition | null = null;
  for (const [index, tourId] of shipments.delivered.slice(0, 2).entries()) {
    const tour = await marketplace.loadTour(tourId);
    if (!tour) continue;
    const carrier = shipments.users.find(
      (user) =>
        user.organizationId === tour.carrierOrganizationId &&
        user.caller.actor.roleId === Role.Carrier,
    );
    const drafted = await invoices.draftForTour(tourId, null, now());
    if (!drafted || !carrier) continue;
    last = drafted.position ?? last;
    last =
      (await invoices.submit(carrier.caller, drafted.invoiceId, `ACC-${1001 + index}`, now())) ??
      last;
    if (index === 1) {
      last = (await invoices.approve(shipments.shipper.caller, drafted.invoiceId, now())) ?? last;
      last =
        (await invoices.schedule(
          shipments.shipper.caller,
          drafted.invoiceId,
          new Date(Date.now() + 7 * DAY).toISOString().slice(0, 10),
          now(),
        )) ?? last;
    }
  }
  return last;
}
