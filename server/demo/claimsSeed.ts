/**
 * The demo's accessorial claims, so that a newcomer sees them at once: on shipper1's two delivered
 * shipments a detention claim each (one approved by the shipper, one disputed with a reason), a
 * lumper receipt from the driver at the delivery of the shipment waiting for its confirmation, and a
 * TONU on a shipment shipper2 cancels after carrier1 confirmed it. Amounts come from each load's
 * terms (the shipper's defaults) through the same rules as at a real departure.
 */
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { TourStatus } from '../../domain/catalog.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { latest } from '../eventstore/eventStore.ts';
import type { Platform } from '../platform.ts';
import type { DemoUser } from './demoUsers.ts';

const MINUTE = 60_000;

async function receiptPdf(amount: number, facility: string, at: string): Promise<Buffer> {
  const document = await PDFDocument.create();
  document.setTitle('Lumper receipt');
  document.setCreationDate(new Date(at));
  document.setModificationDate(new Date(at));
  const page = document.addPage([288, 360]);
  const font = await document.embedFont(StandardFonts.Helvetica);
  const ink = rgb(0.06, 0.09, 0.16);
  [
    'LUMPER SERVICE RECEIPT',
    facility,
    `Date: ${at.slice(0, 10)}`,
    'Unloaded: 22 pallets',
    `Total paid: $${amount.toFixed(2)}`,
  ].forEach((text, index) => {
    page.drawText(text, { x: 24, y: 320 - index * 24, size: 11, font, color: ink });
  });
  return Buffer.from(await document.save());
}

export async function seedDemoClaims(
  platform: Platform,
  shipments: {
    /** shipper1's delivered tours: the first's claim is approved, the second's disputed. */
    delivered: string[];
    /** A tour waiting at its delivery, and its driver: the lumper receipt. */
    atDelivery: { tourId: string; driver: DemoUser } | null;
    /** A tour its shipper cancels after the carrier confirmed it: TONU. */
    canceled: { loadId: string; tourId: string; shipper: DemoUser } | null;
    shipper: DemoUser;
  },
): Promise<LogPosition | null> {
  const { claims, marketplace } = platform;
  const now = Date.now();
  const iso = (at: number) => new Date(at).toISOString();
  let last: LogPosition | null = null;
  const position = async () => platform.store.committedHead();

  for (const [index, tourId] of shipments.delivered.entries()) {
    const tour = await marketplace.loadTour(tourId);
    if (!tour) continue;
    const stopIndex = tour.stops.length - 1;
    const stop = tour.stops[stopIndex]!;
    // At the dock 15 minutes before the appointment, out 3 h 40 (or 4 h 25) after it.
    const appointment = now - (6 + index) * 60 * MINUTE;
    const arrivedAt = appointment - 15 * MINUTE;
    const leftAt = appointment + (220 + index * 45) * MINUTE;
    const positionsInside = Array.from({ length: 8 }, (_, step) => ({
      latitude: stop.latitude + (step % 3) * 0.0002,
      longitude: stop.longitude - (step % 2) * 0.0002,
      at: iso(arrivedAt + ((leftAt - arrivedAt) * step) / 7),
    }));
    const [claimed] = await claims.claimDetentionOn(
      tourId,
      stopIndex,
      {
        arrivedAt: iso(arrivedAt),
        leftAt: iso(leftAt),
        appointmentAt: iso(appointment),
        positionsInside,
      },
      iso(leftAt),
    );
    if (!claimed) continue;
    const caller = shipments.shipper.caller;
    last = latest(
      last,
      index === 0
        ? await claims.approve(caller, tourId, claimed.data.claimId, iso(now))
        : await claims.dispute(
            caller,
            tourId,
            claimed.data.claimId,
            'Our gate log shows the truck checked in 40 minutes after its appointment',
            iso(now),
          ),
    );
  }

  if (shipments.atDelivery) {
    const { tourId, driver } = shipments.atDelivery;
    const tour = await marketplace.loadTour(tourId);
    const facility = tour?.stops.at(-1)?.name ?? 'Delivery';
    const amount = 185;
    const receipt = await receiptPdf(amount, facility, iso(now));
    last = latest(
      last,
      (
        await claims.lumper(
          driver.caller,
          tourId,
          amount,
          { buffer: receipt, mime: 'application/pdf' },
          iso(now),
        )
      ).position,
    );
  }

  if (shipments.canceled) {
    const { loadId, tourId, shipper } = shipments.canceled;
    last = latest(
      last,
      await marketplace.cancelLoad(
        shipper.caller,
        loadId,
        'The order was pulled by our customer',
        iso(now),
      ),
    );
    const tour = await marketplace.loadTour(tourId);
    if (tour?.status === TourStatus.Canceled)
      await claims.claimAtCancellation(tourId, TourStatus.CarrierConfirmed, 'shipper', iso(now));
  }
  return latest(last, await position());
}
