/** The pushes that are their events' own data: a tour's positions, its chat messages, a carrier's authority change. */
import {
  POSITION_EVENT_TYPES,
  positionsIn,
  type MessagePosted,
} from '../../domain/tours/tour.types.ts';
import type { RecordedEvent } from '../eventstore/eventStore.ts';
import type { Push } from './push.ts';
import type { ClaimEvent } from '../../domain/claims/claim.types.ts';
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
  const claim = accessorialPush(event);
  return claim ? [claim] : [];
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
