import { roundCoordinate } from '../../domain/shared/coordinates.ts';
import { z } from 'zod';
import {
  GenericStatus,
  loadTypes,
  searchRadii,
  statusName,
  trailerTypes,
  TableAction,
} from '../../domain/catalog.ts';
import {
  carrierOfferActions,
  shipmentStatusOf,
  shipperLoadActions,
} from '../../domain/loads/loadRows.ts';
import { LOAD_CREATE, LOAD_EDIT, LOADS_CARRIER, LOADS_SHIPPER } from '../../domain/permissions.ts';
import { loadsAnswers } from '../../domain/contracts/loads.contract.ts';
import { LOAD_WEIGHT_MAX } from '../../domain/schemas/load.schema.ts';
import { ValidationError } from '../../domain/shared/errors.ts';
import {
  CARRIER_ORDER,
  marketplacePage,
  savedLocationsOf,
  SHIPPER_ORDER,
  shipperLoadsPage,
} from '../../projections/marketplace/marketplace.queries.ts';
import { detentionOfLoads } from '../../projections/detentionFigures/detentionFigures.queries.ts';
import { payerOfShippers } from '../../projections/payerFigures/payerFigures.queries.ts';
import { facilitiesOfLoadEnds } from '../../projections/facilities/facilities.queries.ts';
import type { App } from '../http/routeContext.ts';
import { can, isSuperadmin, requireActor } from '../http/auth.ts';
import {
  actionsNamed,
  activeFilters,
  instantOf,
  numberOf,
  numbersOf,
  orderOf,
  pageOf,
  TableQuery,
  tableAnswer,
} from '../http/table.ts';
import { baseLoadRow, money } from '../http/loadRows.ts';
import { createTrustReader } from '../http/loadTrust.ts';
import { READY } from '../../domain/loads/trust.ts';

/** A coordinate or radius of an area filter: a JSON number (or a decimal text, as the query carries it). */
const filterNumber = (message: string) =>
  z.union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d{1,4}(\.\d{1,12})?$/, message)
        .transform(Number),
    ],
    { error: message },
  );
const Area = z.object(
  {
    latitude: filterNumber('latitude is between -90 and 90')
      .pipe(
        z
          .number()
          .min(-90, 'latitude is between -90 and 90')
          .max(90, 'latitude is between -90 and 90'),
      )
      .transform(roundCoordinate),
    longitude: filterNumber('longitude is between -180 and 180')
      .pipe(
        z
          .number()
          .min(-180, 'longitude is between -180 and 180')
          .max(180, 'longitude is between -180 and 180'),
      )
      .transform(roundCoordinate),
    radius: filterNumber(`radius is one of ${searchRadii.join(', ')} miles`).refine(
      (radius) => (searchRadii as readonly number[]).includes(radius),
      { error: `radius is one of ${searchRadii.join(', ')} miles` },
    ),
  },
  { error: 'expected {latitude, longitude, radius}' },
);
const areaOf = (values: unknown[] | undefined, name: string) => {
  if (!values) return null;
  const parsed = Area.safeParse(values[0]);
  if (!parsed.success)
    throw ValidationError.field(
      'filters',
      `${name}: ${parsed.error.issues[0]?.message ?? 'expected {latitude, longitude, radius}'}`,
    );
  return parsed.data;
};

const MAX_DAYS_TO_PAY = 'maxDaysToPay is a whole number of days from 1 to 365';
/**
 * The marketplace's query: the table's, `bookNow=true` for the loads with a Book Now price only, and
 * `maxDaysToPay` for the loads of shippers whose measured median days to pay is at most that.
 */
const MarketplaceQuery = TableQuery.extend({
  bookNow: z
    .enum(['true', 'false'], { error: 'bookNow is true or false' })
    .transform((value) => value === 'true')
    .optional(),
  maxDaysToPay: z
    .string({ error: MAX_DAYS_TO_PAY })
    .trim()
    .regex(/^\d{1,3}$/, MAX_DAYS_TO_PAY)
    .transform(Number)
    .pipe(z.number().int().min(1, MAX_DAYS_TO_PAY).max(365, MAX_DAYS_TO_PAY))
    .optional(),
});

/** The boards: the shipper's table of its loads, the carriers' marketplace, and the saved locations the posting form offers. */
/** The audience of a shipper's row: the window's hours and when it opens (null once open). */
const audienceOfRow = (row: {
  audience: { preferredOnlyHours: number } | null;
  opens_at: Date | string | null;
}) =>
  row.audience && row.audience.preferredOnlyHours > 0
    ? {
        preferredOnlyHours: row.audience.preferredOnlyHours,
        opensAt: row.opens_at ? new Date(row.opens_at).toISOString() : null,
      }
    : null;

export function loadBoardRoutes(app: App) {
  const { db } = app.platform.database;
  const trustReader = createTrustReader({
    db,
    store: app.platform.store,
    runner: app.platform.runner,
  });

  app.get(
    '/loads/shipper',
    {
      schema: {
        tags: ['loads'],
        summary: "The shipper's loads with their shipment status and offers",
        querystring: TableQuery,
        response: loadsAnswers.shipper,
      },
      onRequest: can(LOADS_SHIPPER),
    },
    async (request) => {
      const actor = requireActor(request);
      const query = request.query;
      const filters = activeFilters(query);
      const statuses = numbersOf(filters.get('status'), null, 'status');
      const { total, rows } = await shipperLoadsPage(
        db,
        {
          userId: actor.userId,
          shipperOrganizationId: isSuperadmin(actor)
            ? null
            : (actor.organizationId ?? '00000000-0000-0000-0000-000000000000'),
          statuses,
        },
        pageOf(query, orderOf(query, SHIPPER_ORDER, 'l.created_at')),
      );
      const trust = await trustReader.ofLoads(rows.map((row) => row.id));
      const data = rows.map((loadRow) => {
        // Without the open offers of blocked carriers, when the load has any.
        const hidden = loadRow.without_blocked;
        const row = hidden
          ? {
              ...loadRow,
              proposals_count: Number(hidden.total),
              open_proposals: Number(hidden.open),
              best_price: hidden.best,
            }
          : loadRow;
        const facts = {
          loadStatus: row.status,
          tourStatus: row.tour_status ?? null,
          openProposals: row.open_proposals,
          proposalsCount: row.proposals_count,
          shipperRated: Boolean(row.shipper_rated),
          carrierRated: Boolean(row.carrier_rated),
        };
        const shipment = shipmentStatusOf(facts);
        return {
          ...baseLoadRow(row),
          status: shipment.id,
          statusKey: row.status === GenericStatus.Paused ? 'paused' : shipment.key,
          statusName: row.status === GenericStatus.Paused ? 'Paused' : shipment.name,
          statusColor: shipment.color.name,
          proposals: row.proposals_count,
          openProposals: row.open_proposals,
          newProposals: Number(row.new_proposals),
          bestPrice: money(row.best_price),
          price: money(row.price),
          tourId: row.tour_id,
          driver: row.assignee_name ?? null,
          actions: shipperLoadActions(facts),
          trust: trust.get(row.id) ?? READY,
          audience: audienceOfRow(row),
        };
      });
      return tableAnswer(query, total, data, actionsNamed([1, 2, 3, 4, 6, 7, 8, 11, 12, 16]));
    },
  );

  app.get(
    '/loads/carrier',
    {
      schema: {
        tags: ['loads'],
        summary:
          'The marketplace: open loads, searched by origin and destination radius, equipment, dates and weight',
        querystring: MarketplaceQuery,
        response: loadsAnswers.carrier,
      },
      onRequest: can(LOADS_CARRIER),
    },
    async (request) => {
      const actor = requireActor(request);
      const query = request.query;
      const filters = activeFilters(query);
      const origin = areaOf(filters.get('origin'), 'origin');
      const destination = areaOf(filters.get('destination'), 'destination');
      const equipment = numbersOf(
        filters.get('equipment'),
        trailerTypes.map((type) => type.id),
        'equipment',
      );
      const loadType = numbersOf(
        filters.get('loadType'),
        loadTypes.map((type) => type.id),
        'loadType',
      );
      const pickupFrom = instantOf(filters.get('pickupFrom'), 'pickupFrom');
      const pickupTo = instantOf(filters.get('pickupTo'), 'pickupTo');
      const maxWeight = numberOf(filters.get('maxWeight'), 'maxWeight', 1, LOAD_WEIGHT_MAX);
      const bookNow =
        query.bookNow === true ||
        (filters.get('bookNow') ?? []).some((value) => value === true || value === 'true');
      const maxDaysToPay =
        query.maxDaysToPay ?? numberOf(filters.get('maxDaysToPay'), 'maxDaysToPay', 1, 365);
      const now = new Date();
      const { total, rows } = await marketplacePage(
        db,
        {
          carrierOrganizationId: actor.organizationId,
          now: now.toISOString(),
          origin,
          destination,
          equipment,
          loadTypes: loadType,
          pickupFrom,
          pickupTo,
          maxWeight,
          bookNow,
          maxDaysToPay,
        },
        pageOf(query, orderOf(query, CARRIER_ORDER, 'l.pickup_start', 'ASC')),
      );
      const payers = await payerOfShippers(
        db,
        rows.map((row) => row.shipper_organization_id),
        now,
      );
      const facilities = await facilitiesOfLoadEnds(
        db,
        rows.map((row) => row.id),
      );
      const detention = await detentionOfLoads(
        db,
        rows.map((row) => ({
          id: row.id,
          shipperOrganizationId: row.shipper_organization_id,
          pickup: {
            address: row.pickup_address,
            latitude: Number(row.pickup_latitude),
            longitude: Number(row.pickup_longitude),
          },
          delivery: {
            address: row.dropoff_address,
            latitude: Number(row.dropoff_latitude),
            longitude: Number(row.dropoff_longitude),
          },
        })),
      );
      const data = rows.map((row) => ({
        ...baseLoadRow(row),
        status: row.status,
        statusName: statusName(row.status),
        shipper: row.shipper_name,
        originDistance:
          row.origin_miles === undefined ? null : Math.round(Number(row.origin_miles) * 10) / 10,
        destinationDistance:
          row.destination_miles === undefined
            ? null
            : Math.round(Number(row.destination_miles) * 10) / 10,
        myProposal: row.my_proposal_id
          ? {
              id: row.my_proposal_id,
              status: row.my_proposal_status,
              statusName: statusName(row.my_proposal_status!),
              price: money(row.my_proposal_price),
              counterPrice: money(row.my_counter_price),
            }
          : null,
        actions: carrierOfferActions(row.my_proposal_status ?? null, true),
        detention: detention.get(row.id)!,
        payer: payers.get(row.shipper_organization_id)!,
        facilities: facilities.get(row.id) ?? { pickup: null, delivery: null },
      }));
      return tableAnswer(
        query,
        total,
        data,
        actionsNamed([TableAction.View, TableAction.MakeOffer, TableAction.Withdraw]),
      );
    },
  );

  app.get(
    '/loads/list/getSavedLocations',
    {
      schema: {
        tags: ['loads'],
        summary: "The organization's saved locations",
        response: loadsAnswers.savedLocations,
      },
      onRequest: can(LOAD_CREATE, LOAD_EDIT),
    },
    async (request) => {
      const actor = requireActor(request);
      if (!actor.organizationId) return [];
      const rows = await savedLocationsOf(db, actor.organizationId);
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        address: row.address,
        city: row.city,
        state: row.state,
        latitude: Number(row.latitude),
        longitude: Number(row.longitude),
        contactName: row.contact_name,
        contactPhone: row.contact_phone,
        number: row.number,
        locationType: row.location_type,
      }));
    },
  );
}
