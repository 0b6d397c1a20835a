import { GenericStatus, TourStatus } from '../../domain/catalog.ts';
import type {
  LoadCanceled,
  LoadCompleted,
  LoadContractSigned,
  LoadDetails,
  LoadExpirationExtended,
  LoadExpired,
  LoadOpenedToMarketplace,
  LoadPosted,
  LoadProposalAccepted,
  LoadUpdated,
} from '../../domain/loads/load.types.ts';
import { opensAtOf } from '../../domain/loads/load.types.ts';
import { routeMiles } from '../../domain/loads/route.ts';
import type { LocationSaved } from '../../domain/loads/savedLocation.ts';
import type { Handler, LoadState, MarketplacePage } from './marketplacePage.ts';

/** The loads_view columns a load's details fill: pickup and dropoff are its first and last stop. */
const detailFields = (details: LoadDetails) => {
  const pickup = details.stops[0]!;
  const dropoff = details.stops[details.stops.length - 1]!;
  return {
    pickup_start: details.pickupStart,
    pickup_end: details.pickupEnd,
    pickup_timezone: details.pickupTimezone,
    dropoff_start: details.dropoffStart,
    dropoff_end: details.dropoffEnd,
    dropoff_timezone: details.dropoffTimezone,
    expiration: details.expiration,
    expiration_timezone: details.expirationTimezone,
    load_type_id: details.loadTypeId,
    equipment: details.equipment.map((value) => Math.trunc(value)),
    accessories: details.accessories.map((value) => Math.trunc(value)),
    weight: details.weight,
    commodity: details.commodity,
    ref_number: details.refNumber,
    description: details.description,
    pickup_address: pickup.address,
    pickup_city: pickup.city,
    pickup_state: pickup.state,
    pickup_latitude: pickup.latitude,
    pickup_longitude: pickup.longitude,
    dropoff_address: dropoff.address,
    dropoff_city: dropoff.city,
    dropoff_state: dropoff.state,
    dropoff_latitude: dropoff.latitude,
    dropoff_longitude: dropoff.longitude,
    distance_miles: routeMiles(details.stops),
    stops: details.stops,
    terms: details.terms ?? null,
    book_now_price: details.bookNowPrice ?? null,
  } satisfies Partial<LoadState>;
};

/**
 * The audience columns: the window counted from the posting; a load opened to everyone stays open
 * whatever an edit asks.
 */
const audienceFields = (postedAt: string, details: LoadDetails, openedAt: string | null) => {
  const hours = details.audience?.preferredOnlyHours ?? 0;
  if (hours <= 0 && openedAt === null) return { audience: null, opens_at: null };
  return {
    audience: { preferredOnlyHours: hours, openedAt },
    opens_at: openedAt === null ? opensAtOf(postedAt, details.audience) : null,
  };
};

const isoOf = (value: unknown) =>
  value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();

/** A posted load is on the board (Created) with no offers yet. */
const loadPosted = (page: MarketplacePage, d: LoadPosted['data']) =>
  page.loads.insert({
    ...audienceFields(d.postedAt, d.details, null),
    id: d.loadId,
    guid: d.guid,
    shipper_organization_id: d.shipperOrganizationId,
    posted_by: d.postedBy,
    status: GenericStatus.Created,
    ...detailFields(d.details),
    proposals_count: 0,
    open_proposals: 0,
    created_at: d.postedAt,
    updated_at: d.postedAt,
  });

const loadUpdated = (page: MarketplacePage, d: LoadUpdated['data']) => {
  const row = page.loads.get(d.loadId);
  const audience = row?.audience as { openedAt: string | null } | null | undefined;
  page.loads.update(d.loadId, {
    ...detailFields(d.details),
    ...(row ? audienceFields(isoOf(row.created_at), d.details, audience?.openedAt ?? null) : {}),
    updated_at: d.updatedAt,
  });
};

/** The preferred-only window passed: every carrier (but the blocked) sees the load. */
const loadOpened = (page: MarketplacePage, d: LoadOpenedToMarketplace['data']) => {
  const audience = page.loads.get(d.loadId)?.audience as
    | { preferredOnlyHours: number }
    | null
    | undefined;
  page.loads.update(d.loadId, {
    audience: { preferredOnlyHours: audience?.preferredOnlyHours ?? 0, openedAt: d.openedAt },
    opens_at: null,
  });
};

/** A new expiration; a Paused load it reopens is Created again. */
const loadExpirationExtended = (page: MarketplacePage, d: LoadExpirationExtended['data']) =>
  page.loads.update(d.loadId, {
    expiration: d.expiration,
    expiration_timezone: d.expirationTimezone,
    ...(d.reopened ? { status: GenericStatus.Created } : {}),
    updated_at: d.extendedAt,
  });

/** Its offer ran out: Paused until the shipper extends it. */
const loadExpired = (page: MarketplacePage, d: LoadExpired['data']) =>
  page.loads.update(d.loadId, { status: GenericStatus.Paused, updated_at: d.expiredAt });

const loadCanceled = (page: MarketplacePage, d: LoadCanceled['data']) =>
  page.loads.update(d.loadId, {
    status: GenericStatus.Canceled,
    cancel_message: d.message,
    updated_at: d.canceledAt,
  });

/** The accepted offer's carrier and price, and its tour: Bid Accepted until the tour says more. */
const loadOfferAccepted = (page: MarketplacePage, d: LoadProposalAccepted['data']) =>
  page.loads.update(d.loadId, {
    status: GenericStatus.Accepted,
    accepted_proposal_id: d.proposalId,
    carrier_organization_id: d.carrierOrganizationId,
    price: d.price,
    tour_id: d.tourId,
    tour_status: page.loads.get(d.loadId)?.tour_status ?? TourStatus.BidAccepted,
    updated_at: d.acceptedAt,
  });

const loadContractSigned = (page: MarketplacePage, d: LoadContractSigned['data']) =>
  page.loads.update(d.loadId, {
    status: GenericStatus.Signed,
    contract_file_id: d.contractFileId,
    updated_at: d.signedAt,
  });

const loadCompleted = (page: MarketplacePage, d: LoadCompleted['data']) =>
  page.loads.update(d.loadId, { status: GenericStatus.Completed, updated_at: d.completedAt });

/** A location saved again keeps its organization and takes everything else from the newest. */
const locationSaved = (page: MarketplacePage, d: LocationSaved['data']) => {
  const { organizationId, location: l, savedAt } = d;
  page.locations.set(l.id, {
    id: l.id,
    organization_id: page.locations.get(l.id)?.organization_id ?? organizationId,
    name: l.name,
    address: l.address,
    city: l.city,
    state: l.state,
    latitude: l.latitude,
    longitude: l.longitude,
    contact_name: l.contactName,
    contact_phone: l.contactPhone,
    number: l.number,
    location_type: l.locationType,
    saved_at: savedAt,
  });
};

const ofLoad = (d: { loadId: string }) => ({ load: d.loadId });

/** The load events the marketplace read model takes, and saved locations (offered in the load form). */
export const loadHandlers = {
  LoadPosted: { touches: ofLoad, fold: loadPosted } satisfies Handler<LoadPosted>,
  LoadUpdated: { touches: ofLoad, fold: loadUpdated } satisfies Handler<LoadUpdated>,
  LoadExpirationExtended: {
    touches: ofLoad,
    fold: loadExpirationExtended,
  } satisfies Handler<LoadExpirationExtended>,
  LoadExpired: { touches: ofLoad, fold: loadExpired } satisfies Handler<LoadExpired>,
  LoadOpenedToMarketplace: {
    touches: ofLoad,
    fold: loadOpened,
  } satisfies Handler<LoadOpenedToMarketplace>,
  LoadCanceled: { touches: ofLoad, fold: loadCanceled } satisfies Handler<LoadCanceled>,
  LoadProposalAccepted: {
    touches: ofLoad,
    fold: loadOfferAccepted,
  } satisfies Handler<LoadProposalAccepted>,
  LoadContractSigned: {
    touches: ofLoad,
    fold: loadContractSigned,
  } satisfies Handler<LoadContractSigned>,
  LoadCompleted: { touches: ofLoad, fold: loadCompleted } satisfies Handler<LoadCompleted>,
  LocationSaved: { touches: () => ({}), fold: locationSaved } satisfies Handler<LocationSaved>,
};
