import type { TFunction } from 'i18next';
import { genericStatuses, tourStatuses } from '../../../../domain/catalog.ts';
import { formatPrice, formatZoned } from '../../shared/format.ts';
import type { HistoryEvent } from './history.api.ts';

const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
const money = (value: unknown, lng: string): string =>
  typeof value === 'number' ? formatPrice(value, lng) : '';

/** A status's name in the reader's language (status.* keys), from a tour or generic status id. */
export function statusLabel(t: TFunction, id: unknown, list: 'tour' | 'generic'): string {
  const entry = (list === 'tour' ? tourStatuses : genericStatuses).find(
    (status) => status.id === id,
  );
  if (!entry) return text(id);
  const key =
    'key' in entry
      ? entry.key
      : entry.name
          .replace(/\s+(.)/g, (_match, next: string) => next.toUpperCase())
          .replace(/^./, (first) => first.toLowerCase());
  return t(`status.${key}` as 'status.created', { defaultValue: entry.name });
}

/** The place names of a posted load: "Chicago, IL → Dallas, TX". */
function routeOf(data: Record<string, unknown>): string {
  const details = data.details as
    | { stops?: { city?: string | null; state?: string | null; address?: string }[] }
    | undefined;
  const stops = details?.stops ?? [];
  const place = (stop?: { city?: string | null; state?: string | null; address?: string }) =>
    stop ? [stop.city, stop.state].filter(Boolean).join(', ') || stop.address || '' : '';
  return stops.length > 1 ? `${place(stops[0])} → ${place(stops.at(-1))}` : place(stops[0]);
}

/** One readable line per event type of the load, offer, tour, chat and rate-confirmation streams. */
export function summarize(t: TFunction, event: HistoryEvent, lng: string): string {
  const data = event.data ?? {};
  const withMessage = (line: string) =>
    text(data.message) ? `${line}: “${text(data.message)}”` : line;
  switch (event.type) {
    case 'LoadPosted':
      return t('history.summary.LoadPosted', { guid: text(data.guid), route: routeOf(data) });
    case 'LoadUpdated':
      return t('history.summary.LoadUpdated', { route: routeOf(data) });
    case 'LoadExpirationExtended':
      return t(
        data.reopened ? 'history.summary.LoadReopened' : 'history.summary.LoadExpirationExtended',
        {
          time: formatZoned(text(data.expiration), text(data.expirationTimezone), lng),
        },
      );
    case 'LoadExpired':
      return t('history.summary.LoadExpired');
    case 'LoadCanceled':
      return withMessage(t('history.summary.LoadCanceled'));
    case 'LoadProposalAccepted':
      return t('history.summary.LoadProposalAccepted', { price: money(data.price, lng) });
    case 'LoadContractSigned':
      return t('history.summary.LoadContractSigned');
    case 'LoadCompleted':
      return t('history.summary.LoadCompleted');
    case 'ProposalSubmitted':
      return withMessage(t('history.summary.ProposalSubmitted', { price: money(data.price, lng) }));
    case 'ProposalRevised':
      return withMessage(t('history.summary.ProposalRevised', { price: money(data.price, lng) }));
    case 'ProposalCountered':
      return withMessage(t('history.summary.ProposalCountered', { price: money(data.price, lng) }));
    case 'CounterAccepted':
      return t('history.summary.CounterAccepted', { price: money(data.price, lng) });
    case 'ProposalAccepted':
      return t('history.summary.ProposalAccepted', { price: money(data.price, lng) });
    case 'ProposalDeclined':
      return data.reason === 'otherAccepted'
        ? t('history.summary.ProposalDeclinedOther')
        : data.reason === 'loadCanceled'
          ? t('history.summary.ProposalDeclinedCanceled')
          : withMessage(t('history.summary.ProposalDeclined'));
    case 'ProposalCanceled':
      return withMessage(t('history.summary.ProposalCanceled'));
    case 'ContractUploaded':
      return t('history.summary.ContractUploaded');
    case 'RateConfirmationIssued':
      return t('history.summary.RateConfirmationIssued');
    case 'TourOpened':
      return t('history.summary.TourOpened', { price: money(data.price, lng) });
    case 'CarrierConfirmed':
      return t('history.summary.CarrierConfirmed');
    case 'TourAssigned':
      return t('history.summary.TourAssigned', { name: text(data.assigneeName) });
    case 'TourStatusChanged':
      return withMessage(
        t('history.summary.TourStatusChanged', {
          from: statusLabel(t, data.from, 'tour'),
          to: statusLabel(t, data.to, 'tour'),
        }),
      );
    case 'TourEventAdded':
      return `${t(`tours.timeline.types.${text(data.type)}` as 'tours.timeline.types.note', { defaultValue: text(data.type) })}: ${text(data.message)}`;
    case 'TourRated':
      return t(
        data.side === 'carrier'
          ? 'history.summary.TourRatedByCarrier'
          : 'history.summary.TourRatedByShipper',
      );
    case 'TourCanceled':
      return withMessage(t('history.summary.TourCanceled'));
    case 'TourShared':
      return t('sharedTrack.history.shared', {
        time: formatZoned(text(data.expiresAt), 'UTC', lng),
      });
    case 'TourShareRevoked':
      return t('sharedTrack.history.revoked');
    case 'DockLinkCreated':
      return t('dock.history.created');
    case 'DockLinkRevoked':
      return t('dock.history.revoked');
    case 'PickupReleased':
      return t('dock.history.released');
    case 'PickupHeld':
      return t('dock.history.held', {
        reasons: (Array.isArray(data.reasons) ? data.reasons : [])
          .map((reason) =>
            t(`dock.reasons.${text(reason)}` as 'dock.reasons.wrong_code', {
              defaultValue: text(reason),
            }),
          )
          .join('; '),
      });
    case 'OrganizationContactChangeRequested':
      return t('contactHold.history.requested', {
        time: formatZoned(text(data.pendingUntil), 'UTC', lng),
      });
    case 'OrganizationContactChangeCancelled':
      return t('contactHold.history.cancelled');
    case 'MessagePosted':
      return t('history.summary.MessagePosted', { text: text(data.text) });
    case 'ProofOfDeliveryRecorded':
      return data.note
        ? t('pod.history.recordedWithNote', { name: text(data.receivedBy), note: text(data.note) })
        : t('pod.history.recorded', { name: text(data.receivedBy) });
    default:
      return event.type;
  }
}

/** The stream an event belongs to, as a short word: load, offer, tour, chat, contract. */
export const streamKind = (stream: string): 'load' | 'offer' | 'tour' | 'chat' | 'contract' => {
  if (stream.startsWith('proposal-')) return 'offer';
  if (stream.startsWith('tourchat-')) return 'chat';
  if (stream.startsWith('tour-')) return 'tour';
  if (stream.startsWith('rateconfirmation-')) return 'contract';
  return 'load';
};
