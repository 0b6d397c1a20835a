/**
 * The realtime channel's contract (docs/api.md "Realtime"): every event name and its payload, once, for
 * the socket.io server (`Server<ClientToServerEvents, ServerToClientEvents>`), the notifier and
 * the browser. The payloads are exactly what the server sends.
 */
import type { AccessorialTerms } from '../loads/terms.ts';

/** A place of a load row (pickup or dropoff). */
export type RealtimePlace = {
  address: string;
  city: string | null;
  state: string | null;
  latitude: number;
  longitude: number;
  timezone?: string | null;
};

/**
 * `load:posted`, `load:updated`: the load's row as the carriers' marketplace (`GET /api/loads/carrier`)
 * shows it, without the per-carrier fields (`myProposal`, `actions`, distances from a searched area).
 */
export type LoadRowPayload = {
  id: string;
  guid: string;
  loadStatus: number;
  loadStatusName: string;
  pickup: RealtimePlace;
  dropoff: RealtimePlace;
  pickupTime: string | null;
  dropoffTime: string | null;
  expiration: string | null;
  expirationTimezone: string;
  loadTypeId: number;
  loadType: string | null;
  equipment: number[];
  equipmentNames: string[];
  accessories: number[];
  weight: number;
  commodity: string;
  refNumber: string;
  distance: number;
  stopsCount: number;
  /** The load's accessorial terms; null: none. */
  terms: AccessorialTerms | null;
  /** The Book Now price; null: offers only (absent in pushes from before Book Now). */
  bookNowPrice?: number | null;
  status: number;
  statusName: string;
  shipper: string;
  /** Whether the load is on the marketplace now: false once it was accepted, cancelled, paused or expired. */
  open: boolean;
};

/** `proposal:new`, to the load's shipper organization (members holding 407). */
export type OfferNewPayload = {
  loadId: string;
  loadGuid: string;
  proposalId: string;
  carrier: { id: string; name: string | null };
  price: number;
  at: string;
};

/** `proposal:updated`, to both organizations (members holding 404). */
export type OfferUpdatedPayload = {
  loadId: string;
  proposalId: string;
  status: number;
  price: number;
  counterPrice: number | null;
};

/** `tour:status` (opened, confirmed, status changed, cancelled) and `tour:event` (assigned, an event, a rating, the dock's release or hold). */
export type TourChangePayload = {
  tourId: string;
  loadId: string;
  loadGuid: string;
  status: number;
  event: { id: string; type: string; data: unknown; at: string };
};

/** `tour:position`, to `tour:<id>` (the watchers). */
export type TourPositionPayload = {
  tourId: string;
  latitude: number;
  longitude: number;
  speed: number | null;
  heading: number | null;
  recordedAt: string;
};

/** `chat:message`, to `tour:<id>`. */
export type ChatMessagePayload = {
  tourId: string;
  message: {
    id: string;
    user: { id: string; name: string };
    organizationId: string | null;
    text: string;
    at: string;
  };
};

/** A place of a lane alert's load. */
export type LaneAlertPlace = {
  address: string;
  city: string | null;
  state: string | null;
  latitude: number;
  longitude: number;
};

/** `lane:alert`, to `user:<id>`: a new load matches one of the user's saved searches. */
export type LaneAlertPayload = {
  searchId: string;
  searchName: string;
  load: {
    id: string;
    guid: string;
    pickup: LaneAlertPlace;
    dropoff: LaneAlertPlace;
    pickupTime: string;
    equipment: number[];
    weight: number;
  };
};

/**
 * `limit:exceeded`, to one socket, just before the server closes it: it went past one of the limits of
 * docs/api.md "Limits" (events a second on the socket or over the user's sockets, requests unanswered
 * at once, tours not found). `reason` is a sentence for people; a client connects again later.
 */
export type LimitExceededPayload = {
  limit: 'events' | 'userEvents' | 'inFlight' | 'toursNotFound';
  reason: string;
};

/**
 * `carrier:authority`, to the carrier's organization: FMCSA's records of its operating authority
 * changed (CarrierAuthorityChanged); the webhook `carrier.authority_changed` carries the same.
 */
export type CarrierAuthorityPayload = {
  organizationId: string;
  dotNumber: number | null;
  mcNumber: number | null;
  status: 'active' | 'inactive' | 'revoked' | 'unknown';
  insuranceOnFile: boolean;
  previous: { status: 'active' | 'inactive' | 'revoked' | 'unknown'; insuranceOnFile: boolean };
  source: 'import' | 'qcmobile';
  checkedAt: string;
};

/**
 * `accessorial.claimed`, `.approved`, `.disputed`, `.answered`, `.settled`, to `tour:<id>` (and, for
 * a new claim, both organizations): a claim of the tour changed; the webhooks of the same names
 * carry the same. `approvedBy` 'silence': approved by the passing of time.
 */
export type AccessorialPayload = {
  tourId: string;
  claimId: string;
  status: 'claimed' | 'approved' | 'disputed' | 'answered' | 'settled';
  kind?: 'detention' | 'tonu' | 'layover' | 'lumper';
  stopIndex?: number | null;
  minutes?: number;
  amount?: number;
  dueAt?: string;
  reason?: string;
  text?: string;
  note?: string;
  approvedBy?: 'shipper' | 'silence';
  at: string;
};

/**
 * `invoice.drafted`, `.submitted`, `.approved`, `.disputed`, `.answered`, `.scheduled`, `.paid`,
 * `.received`, to `org:<carrier>` and `org:<shipper>`: an invoice between them changed; `status` is
 * its stored status after the change (`received: false`: the carrier reported the payment missing,
 * and the invoice is open again). The webhooks of the same names (but for `.drafted` and
 * `.answered`) carry the same.
 */
export type InvoicePayload = {
  invoiceId: string;
  status: 'draft' | 'submitted' | 'approved' | 'disputed' | 'scheduled' | 'paid' | 'received';
  number?: string;
  loadId?: string;
  total?: number;
  dueAt?: string;
  date?: string;
  paidAt?: string;
  received?: boolean;
  bySilence?: boolean;
  lines?: { index: number; reason: string }[];
  at: string;
};

/** What the server sends, by event name. */
export type ServerPayloads = {
  'load:posted': LoadRowPayload;
  'load:updated': LoadRowPayload;
  'proposal:new': OfferNewPayload;
  'proposal:updated': OfferUpdatedPayload;
  'tour:status': TourChangePayload;
  'tour:event': TourChangePayload;
  'tour:position': TourPositionPayload;
  'chat:message': ChatMessagePayload;
  'lane:alert': LaneAlertPayload;
  'carrier:authority': CarrierAuthorityPayload;
  'accessorial.claimed': AccessorialPayload;
  'accessorial.approved': AccessorialPayload;
  'accessorial.disputed': AccessorialPayload;
  'accessorial.answered': AccessorialPayload;
  'accessorial.settled': AccessorialPayload;
  'invoice.drafted': InvoicePayload;
  'invoice.submitted': InvoicePayload;
  'invoice.approved': InvoicePayload;
  'invoice.disputed': InvoicePayload;
  'invoice.answered': InvoicePayload;
  'invoice.scheduled': InvoicePayload;
  'invoice.paid': InvoicePayload;
  'invoice.received': InvoicePayload;
  'limit:exceeded': LimitExceededPayload;
};
export type ServerEventName = keyof ServerPayloads;
export const SERVER_EVENTS = [
  'load:posted',
  'load:updated',
  'proposal:new',
  'proposal:updated',
  'tour:status',
  'tour:event',
  'tour:position',
  'chat:message',
  'lane:alert',
  'carrier:authority',
  'accessorial.claimed',
  'accessorial.approved',
  'accessorial.disputed',
  'accessorial.answered',
  'accessorial.settled',
  'invoice.drafted',
  'invoice.submitted',
  'invoice.approved',
  'invoice.disputed',
  'invoice.answered',
  'invoice.scheduled',
  'invoice.paid',
  'invoice.received',
  'limit:exceeded',
] as const satisfies readonly ServerEventName[];

/** socket.io's typed map of the server's events. */
export type ServerToClientEvents = { [E in ServerEventName]: (payload: ServerPayloads[E]) => void };

/** The acknowledgement of a client request. */
export type Ack = { ok: true } | { ok: false; error: string };

/** The payload of `auth:refresh`: a fresh access token of the same user and session. */
export type AuthRefreshPayload = { token: string };

/**
 * Client to server. `tour:watch` joins `tour:<id>` (only the tour's parties may); on a socket opened
 * with a tracking link (`auth: { shareToken }`), `tour:watch { shareToken }` joins that link's tour,
 * which hears `tour:position`, and `tour:status` / `tour:event` with `event.data` null; `auth:refresh`
 * hands the socket a fresh access token, which moves its expiry (a token that is bad, expired, or
 * of another user or session closes the socket).
 */
export type ClientToServerEvents = {
  'tour:watch': (
    payload: { tourId: string } | { shareToken: string },
    ack?: (answer: Ack & { tourId?: string }) => void,
  ) => void;
  'tour:unwatch': (payload: { tourId: string }, ack?: (answer: Ack) => void) => void;
  'auth:refresh': (
    payload: AuthRefreshPayload,
    ack?: (answer: Ack & { expiresAt?: number }) => void,
  ) => void;
};
export type ClientEventName = keyof ClientToServerEvents;
