/** The pushes that are their events' own data: a tour's positions, its chat messages, a carrier's authority change. */
import {
  POSITION_EVENT_TYPES,
  positionsIn,
  type MessagePosted,
} from '../../domain/tours/tour.types.ts';
import type { RecordedEvent } from '../eventstore/eventStore.ts';
import type { Push } from './push.ts';
import type { ClaimEvent } from '../../domain/claims/claim.types.ts';
import type { InvoiceEvent } from '../../domain/invoices/invoice.types.ts';
import type { InvoicePayload } from '../../domain/realtime/events.ts';
import type { CarrierAuthorityChanged } from '../../domain/organizations/organization.ts';
import { organizationRoom, tourRoom } from './rooms.ts';

/**
 * Events that are their own payload (positions, a chat message): what the tour's room hears, one
 * push per position of a batch, oldest first; none for any other event.
 */
export function livePushes(event: RecordedEvent): Push[] {
  if (POSITION_EVENT_TYPES.has(event.type)) {
    return positionsIn(event).map(
      ({ tourId, latitude, longitude, speed, heading, recordedAt }) => ({
        rooms: [tourRoom(tourId)],
        event: 'tour:position',
        payload: { tourId, latitude, longitude, speed, heading, recordedAt },
      }),
    );
  }
  if (event.type === 'MessagePosted') {
    const { tourId, messageId, userId, userName, organizationId, text, postedAt } = (
      event as unknown as MessagePosted
    ).data;
    return [
      {
        rooms: [tourRoom(tourId)],
        event: 'chat:message',
        payload: {
          tourId,
          message: {
            id: messageId,
            user: { id: userId, name: userName },
            organizationId,
            text,
            at: postedAt,
          },
        },
      },
    ];
  }
  if (event.type === 'CarrierAuthorityChanged') {
    const data = (event as unknown as CarrierAuthorityChanged).data;
    return [
      {
        rooms: [organizationRoom(data.organizationId)],
        event: 'carrier:authority',
        payload: {
          organizationId: data.organizationId,
          dotNumber: data.dotNumber,
          mcNumber: data.mcNumber,
          status: data.status,
          insuranceOnFile: data.insuranceOnFile,
          previous: data.previous,
          source: data.source,
          checkedAt: data.checkedAt,
        },
      },
    ];
  }
  const claim = accessorialPush(event) ?? invoicePush(event);
  return claim ? [claim] : [];
}

/** An invoice's change: both its organizations hear of it. */
function invoicePush(event: RecordedEvent): Push | null {
  const e = event as unknown as InvoiceEvent;
  const to = (
    parties: { carrierOrganizationId?: string; shipperOrganizationId?: string },
    name: Push['event'],
    payload: InvoicePayload,
  ): Push | null =>
    parties.carrierOrganizationId && parties.shipperOrganizationId
      ? {
          rooms: [
            organizationRoom(parties.carrierOrganizationId),
            organizationRoom(parties.shipperOrganizationId),
          ],
          event: name,
          payload,
        }
      : null;
  switch (e.type) {
    case 'InvoiceDrafted': {
      const d = e.data;
      return to(d, 'invoice.drafted', {
        invoiceId: d.invoiceId,
        status: 'draft',
        number: d.number,
        loadId: d.loadId,
        total: d.total,
        at: d.draftedAt,
      });
    }
    case 'InvoiceSubmitted':
      return to(e.data, 'invoice.submitted', {
        invoiceId: e.data.invoiceId,
        status: 'submitted',
        total: e.data.total,
        dueAt: e.data.dueAt,
        at: e.data.submittedAt,
      });
    case 'InvoiceApproved':
      return to(e.data, 'invoice.approved', {
        invoiceId: e.data.invoiceId,
        status: 'approved',
        bySilence: e.data.bySilence,
        at: e.data.approvedAt,
      });
    case 'InvoiceDisputed':
      return to(e.data, 'invoice.disputed', {
        invoiceId: e.data.invoiceId,
        status: 'disputed',
        lines: e.data.lines,
        at: e.data.disputedAt,
      });
    case 'InvoiceDisputeAnswered':
      return to(e.data, 'invoice.answered', {
        invoiceId: e.data.invoiceId,
        status: 'submitted',
        at: e.data.answeredAt,
      });
    case 'InvoiceScheduled':
      return to(e.data, 'invoice.scheduled', {
        invoiceId: e.data.invoiceId,
        status: 'scheduled',
        date: e.data.date,
        at: e.data.scheduledAt,
      });
    case 'InvoicePaid':
      return to(e.data, 'invoice.paid', {
        invoiceId: e.data.invoiceId,
        status: 'paid',
        total: e.data.amount,
        paidAt: e.data.paidAt,
        at: e.data.recordedAt,
      });
    case 'InvoiceReceiptConfirmed':
      return to(e.data, 'invoice.received', {
        invoiceId: e.data.invoiceId,
        status: 'received',
        received: true,
        at: e.data.confirmedAt,
      });
    case 'InvoiceReceiptDenied':
      return to(e.data, 'invoice.received', {
        invoiceId: e.data.invoiceId,
        status: 'approved',
        received: false,
        at: e.data.deniedAt,
      });
    default:
      return null;
  }
}

/** A claim's change: the tour's room hears it, and both organizations hear of a new claim. */
function accessorialPush(event: RecordedEvent): Push | null {
  const e = event as unknown as ClaimEvent;
  switch (e.type) {
    case 'AccessorialClaimed': {
      const d = e.data;
      return {
        rooms: [
          tourRoom(d.tourId),
          organizationRoom(d.shipperOrganizationId),
          organizationRoom(d.carrierOrganizationId),
        ],
        event: 'accessorial.claimed',
        payload: {
          tourId: d.tourId,
          claimId: d.claimId,
          status: 'claimed',
          kind: d.kind,
          stopIndex: d.stopIndex,
          minutes: d.minutes,
          amount: d.amount,
          dueAt: d.dueAt,
          at: d.claimedAt,
        },
      };
    }
    case 'AccessorialApproved':
      return {
        rooms: [tourRoom(e.data.tourId)],
        event: 'accessorial.approved',
        payload: {
          tourId: e.data.tourId,
          claimId: e.data.claimId,
          status: 'approved',
          amount: e.data.amount,
          approvedBy: e.data.bySilence ? 'silence' : 'shipper',
          at: e.data.approvedAt,
        },
      };
    case 'AccessorialDisputed':
      return {
        rooms: [tourRoom(e.data.tourId)],
        event: 'accessorial.disputed',
        payload: {
          tourId: e.data.tourId,
          claimId: e.data.claimId,
          status: 'disputed',
          reason: e.data.reason,
          at: e.data.disputedAt,
        },
      };
    case 'AccessorialAnswered':
      return {
        rooms: [tourRoom(e.data.tourId)],
        event: 'accessorial.answered',
        payload: {
          tourId: e.data.tourId,
          claimId: e.data.claimId,
          status: 'answered',
          text: e.data.text,
          at: e.data.answeredAt,
        },
      };
    case 'AccessorialSettled':
      return {
        rooms: [tourRoom(e.data.tourId)],
        event: 'accessorial.settled',
        payload: {
          tourId: e.data.tourId,
          claimId: e.data.claimId,
          status: 'settled',
          amount: e.data.amount,
          note: e.data.note,
          at: e.data.settledAt,
        },
      };
    default:
      return null;
  }
}
