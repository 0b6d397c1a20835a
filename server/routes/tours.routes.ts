import {
  GenericStatus,
  ratingCriteriaRatedBy,
  Role,
  TourStatus,
  tourStatuses,
  type TourStatusId,
} from '../../domain/catalog.ts';
import {
  carrierTourActions,
  driverTourActions,
  shipperLoadActions,
} from '../../domain/loads/loadRows.ts';
import {
  CHAT_USE,
  TOUR_ADD_EVENT,
  TOUR_ASSIGN,
  TOUR_ASSIGNEE,
  TOUR_ASSIGNEES_LIST,
  TOUR_CHANGE_STATUS,
  TOUR_GET,
  TOUR_GET_EVENTS,
  TOUR_GET_RATING_CRITERIA,
  TOUR_RATE,
  TOUR_TRACK_STATUS,
  TOURS_ALL,
  TOURS_ASSIGNED,
} from '../../domain/permissions.ts';
import { ForbiddenError, NotFoundError } from '../../domain/shared/errors.ts';
import {
  activeToursOfCarrier,
  TOUR_ORDER,
  tourTimeline,
  toursPage,
  type TourScope,
} from '../../projections/marketplace/marketplace.queries.ts';
import { chatMessagesOf } from '../../projections/tourChat/tourChat.queries.ts';
import { positionsSince } from '../../projections/tourPositions/tourPositions.queries.ts';
import { organizationUsers } from '../../projections/users/users.queries.ts';
import type { OpenedTour } from '../../domain/tours/tour.types.ts';
import {
  PositionBody,
  PositionListBody,
  PositionsQuery,
  toursContract,
  type TimelineType,
} from '../../domain/contracts/tours.contract.ts';
import type { App } from '../http/routeContext.ts';
import { rateLimitPerMinute } from '../config.ts';
import { isTourParty } from '../commands/marketplace.ts';
import { can, isSuperadmin, requireActor, type Actor } from '../http/auth.ts';
import {
  actionsNamed,
  activeFilters,
  numbersOf,
  orderOf,
  pageOf,
  TableQuery,
  tableAnswer,
} from '../http/table.ts';
import { parseWith } from '../http/parseWith.ts';
import { MARKETPLACE_VIEWS } from '../../projections/marketplace/marketplace.views.ts';
import { trackingOf, TRAIL_LENGTH } from './tracking.ts';

/**
 * The agreed price for the caller: none for a driver, who is refused the contract and the rate
 * confirmation too. The price is between the shipper's and the carrier's dispatchers.
 */
const priceFor = (actor: Actor, price: number): number | null =>
  actor.roleId === Role.Driver ? null : price;

// One position or a list, told apart before parsing: a union would answer 'Invalid input' instead of the field's own message.
const parsePositions = (body: unknown) =>
  Array.isArray(body) ? parseWith(PositionListBody, body) : [parseWith(PositionBody, body)];

type Row = Record<string, any>;
const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();
const statusNameOf = (id: number) =>
  tourStatuses.find((status) => status.id === id)?.name ?? String(id);

/** Tours: the tables, assignment, statuses, timeline, positions, tracking, chat and ratings. */
export async function toursRoutes(app: App) {
  const { runner, marketplace } = app.platform;
  const { db } = app.platform.database;
  // Positions come in bursts from the trucks of a fleet behind one address: a limit of their own,
  // never below the rest of the API's.
  const positionsPerMinute = Math.max(6000, rateLimitPerMinute());

  const scopeOf = (actor: Actor): TourScope => {
    if (isSuperadmin(actor)) return { all: true };
    if (actor.roleId === Role.Driver) return { assigneeId: actor.userId };
    return { organizationId: actor.organizationId };
  };

  const rowOf = (actor: Actor, row: Row) => {
    const asShipper = row.shipper_organization_id === actor.organizationId;
    const facts = {
      tourStatus: row.status as number,
      carrierRated: Boolean(row.carrier_rated),
      shipperRated: Boolean(row.shipper_rated),
    };
    const actions =
      actor.roleId === Role.Driver
        ? driverTourActions(row.status)
        : asShipper
          ? shipperLoadActions({
              loadStatus: row.load_status,
              tourStatus: row.status,
              openProposals: 0,
              proposalsCount: 1,
              shipperRated: facts.shipperRated,
              carrierRated: facts.carrierRated,
            })
          : carrierTourActions(facts);
    return {
      id: row.id as string,
      loadId: row.load_id as string,
      loadGuid: row.load_guid as string,
      status: row.status as number,
      statusName: statusNameOf(row.status),
      driver: row.assignee_name ? { id: row.assignee_id, name: row.assignee_name } : null,
      shipper: row.shipper_name as string | null,
      carrier: row.carrier_name as string | null,
      price: priceFor(actor, Number(row.price)),
      eldTruckName: row.eld_truck_name as string | null,
      pickup: {
        address: row.pickup_address,
        city: row.pickup_city,
        state: row.pickup_state,
        time: iso(row.pickup_start),
        timezone: row.pickup_timezone,
      },
      dropoff: {
        address: row.dropoff_address,
        city: row.dropoff_city,
        state: row.dropoff_state,
        time: iso(row.dropoff_start),
        timezone: row.dropoff_timezone,
      },
      lastPositionAt: iso(row.last_position_at),
      openedAt: iso(row.opened_at),
      shipperRated: facts.shipperRated,
      carrierRated: facts.carrierRated,
      actions,
    };
  };

  const table = async (request: { query: TableQuery }, actor: Actor) => {
    const query = request.query;
    const filters = activeFilters(query);
    const statuses = numbersOf(
      filters.get('status'),
      tourStatuses.map((status) => status.id),
      'status',
    );
    const order = orderOf(query, TOUR_ORDER, 't.opened_at');
    const { total, rows } = await toursPage(db, scopeOf(actor), { statuses }, pageOf(query, order));
    return tableAnswer(
      query,
      total,
      rows.map((row) => rowOf(actor, row)),
      actionsNamed([1, 3, 6, 7, 8, 9, 10, 12]),
    );
  };

  const visibleTour = async (actor: Actor, tourId: string): Promise<OpenedTour> =>
    marketplace.visibleTour(actor, tourId);

  app.get(
    '/tours',
    {
      schema: {
        tags: ['tours'],
        summary: 'Tours of the caller (shipper: its loads; carrier: its own; Superadmin: all)',
        querystring: TableQuery,
        ...toursContract.table,
      },
      onRequest: can(TOURS_ALL),
    },
    async (request) => table(request, requireActor(request)),
  );

  app.get(
    '/tours/assigned',
    {
      schema: {
        tags: ['tours'],
        summary: "The driver's own tours",
        querystring: TableQuery,
        ...toursContract.table,
      },
      onRequest: can(TOURS_ASSIGNED),
    },
    async (request) => {
      const actor = requireActor(request);
      // A Superadmin holds every code; "assigned to me" still means tours assigned to the caller.
      return table(request, { ...actor, roleId: Role.Driver });
    },
  );

  app.get(
    '/tours/assignees',
    {
      schema: {
        tags: ['tours'],
        summary: "The carrier's drivers who can be assigned",
        ...toursContract.assignees,
      },
      onRequest: can(TOUR_ASSIGNEES_LIST),
    },
    async (request) => {
      const actor = requireActor(request);
      if (!actor.organizationId) return [];
      const rows = await organizationUsers(
        db,
        actor.organizationId,
        Role.Driver,
        GenericStatus.Active,
      );
      const busy = await activeToursOfCarrier(db, actor.organizationId);
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        phone: row.phone,
        email: row.email,
        openTours: busy
          .filter((tour) => tour.assignee_id === row.id)
          .map((tour) => ({ id: tour.id, loadGuid: tour.load_guid })),
      }));
    },
  );

  app.get(
    '/tours/rating/:id',
    {
      schema: {
        tags: ['tours'],
        summary:
          "A tour's rating criteria for the caller's side, its own rating and the other side's",
        ...toursContract.rating,
      },
      onRequest: can(TOUR_GET_RATING_CRITERIA),
    },
    async (request) => {
      const actor = requireActor(request);
      const tour = await visibleTour(actor, request.params.id);
      const side =
        actor.organizationId === tour.carrierOrganizationId
          ? ('carrier' as const)
          : ('shipper' as const);
      const other = side === 'carrier' ? 'shipper' : 'carrier';
      return {
        tourId: tour.tourId,
        status: tour.status,
        open: tour.status === TourStatus.Delivered,
        side,
        criteria: ratingCriteriaRatedBy(side).map(({ id, name }) => ({ id, name })),
        mine: tour.ratings[side],
        theirs: tour.ratings[other],
      };
    },
  );

  app.post(
    '/tours/:id/rate',
    {
      schema: {
        tags: ['tours'],
        summary: 'Rate the other side of a delivered tour, once',
        ...toursContract.rate,
      },
      onRequest: can(TOUR_RATE),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const { ratings } = request.body;
      const position = await marketplace.rateTour(
        { actor, requestId: request.id },
        request.params.id,
        ratings,
        new Date().toISOString(),
      );
      await runner.waitFor(MARKETPLACE_VIEWS, position);
      return reply.code(201).send({ message: 'Thank you for your rating' });
    },
  );

  app.get(
    '/tours/:id/positions',
    {
      schema: {
        tags: ['tours'],
        summary:
          'The positions recorded after `since` (oldest first, at most 500): what a map missed while offline',
        ...toursContract.positions,
      },
      onRequest: can(TOUR_TRACK_STATUS),
    },
    async (request) => {
      const actor = requireActor(request);
      // The tour first: another organization's id answers 404 whatever the query.
      const tour = await visibleTour(actor, request.params.id);
      const { since } = parseWith(PositionsQuery, request.query ?? {});
      const rows = await positionsSince(db, tour.tourId, since, TRAIL_LENGTH);
      return rows.map((row) => ({
        tourId: tour.tourId,
        latitude: Number(row.latitude),
        longitude: Number(row.longitude),
        speed: row.speed === null ? null : Number(row.speed),
        heading: row.heading === null ? null : Number(row.heading),
        recordedAt: iso(row.recorded_at)!,
      }));
    },
  );

  app.get(
    '/tours/track/:id',
    {
      schema: {
        tags: ['tours'],
        summary: 'Tracking: stops, the recent trail, the last position and the ETA',
        ...toursContract.track,
      },
      onRequest: can(TOUR_TRACK_STATUS),
    },
    async (request) => {
      const actor = requireActor(request);
      const tour = await visibleTour(actor, request.params.id);
      const tracking = await trackingOf(db, tour);
      // Every party of a tour (its shipper, the carrier, the assigned driver) may see the facilities' contacts.
      const load = await marketplace.loadLoad(tour.loadId);
      const contacts = new Map(
        load?.details.stops.map((stop) => [
          stop.id,
          { contactName: stop.contactName, contactPhone: stop.contactPhone, number: stop.number },
        ]) ?? [],
      );
      const answer = tourAnswer(tour, actor);
      return {
        ...answer,
        stops: answer.stops.map((stop) => ({
          ...stop,
          ...(contacts.get(stop.id) ?? { contactName: null, contactPhone: null, number: null }),
        })),
        ...tracking,
      };
    },
  );

  app.get(
    '/tours/:id',
    {
      schema: { tags: ['tours'], summary: 'One tour', ...toursContract.tour },
      onRequest: can(TOUR_GET),
    },
    async (request) => {
      const actor = requireActor(request);
      return tourAnswer(await visibleTour(actor, request.params.id), actor);
    },
  );

  app.post(
    '/tours/:id/assign/:assigneeId',
    {
      schema: {
        tags: ['tours'],
        summary: "Assign one of the carrier's drivers",
        ...toursContract.assign,
      },
      onRequest: can(TOUR_ASSIGN),
    },
    async (request) => {
      const actor = requireActor(request);
      const position = await marketplace.assignTour(
        { actor, requestId: request.id },
        request.params.id,
        request.params.assigneeId,
        new Date().toISOString(),
      );
      await runner.waitFor(MARKETPLACE_VIEWS, position);
      return { message: 'Driver assigned' };
    },
  );

  app.put(
    '/tours/:id/status',
    {
      schema: {
        tags: ['tours'],
        summary: 'Move a tour along its statuses',
        ...toursContract.changeStatus,
      },
      onRequest: can(TOUR_CHANGE_STATUS),
    },
    async (request) => {
      const actor = requireActor(request);
      const { status, message } = request.body;
      const position = await marketplace.changeTourStatus(
        { actor, requestId: request.id },
        request.params.id,
        status as TourStatusId,
        message,
        new Date().toISOString(),
      );
      await runner.waitFor(MARKETPLACE_VIEWS, position);
      return { id: request.params.id, status, statusName: statusNameOf(status) };
    },
  );

  app.get(
    '/tours/:id/events',
    {
      schema: {
        tags: ['tours'],
        summary: "The tour's timeline: status changes, arrivals, departures and notes",
        ...toursContract.events,
      },
      onRequest: can(TOUR_GET_EVENTS),
    },
    async (request) => {
      const tour = await visibleTour(requireActor(request), request.params.id);
      const rows = await tourTimeline(db, tour.tourId);
      return rows.map((row) => ({
        id: row.id,
        type: row.type as TimelineType,
        message: row.message,
        stopId: row.stop_id,
        at: iso(row.at)!,
        user: row.user_id ? { id: row.user_id, name: row.user_name } : null,
      }));
    },
  );

  app.post(
    '/tours/:id/events',
    {
      schema: {
        tags: ['tours'],
        summary: 'Add a note or milestone to the timeline',
        ...toursContract.addEvent,
      },
      onRequest: can(TOUR_ADD_EVENT),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const entry = request.body;
      const { id, position } = await marketplace.addTourEvent(
        { actor, requestId: request.id },
        request.params.id,
        entry,
        new Date().toISOString(),
      );
      await runner.waitFor(MARKETPLACE_VIEWS, position);
      return reply.code(201).send({ id });
    },
  );

  app.post(
    '/tours/:id/positions',
    {
      schema: {
        tags: ['tours'],
        summary: "The assigned driver's positions, one or a batch (speed in mph)",
        ...toursContract.recordPositions,
      },
      onRequest: can(TOUR_ASSIGNEE),
      config: { rateLimit: { max: positionsPerMinute, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      if (actor.roleId !== Role.Driver && !isSuperadmin(actor))
        throw new ForbiddenError('Only the assigned driver sends positions');
      const now = new Date().toISOString();
      const positions = parsePositions(request.body).map((position) => ({
        ...position,
        recordedAt: position.recordedAt ?? now,
      }));
      const { accepted } = await marketplace.recordPositions(
        { actor, requestId: request.id },
        request.params.id,
        positions,
        now,
      );
      return reply.code(202).send({ accepted });
    },
  );

  app.get(
    '/tours/:id/chat',
    {
      schema: { tags: ['tours'], summary: "The tour's chat, oldest first", ...toursContract.chat },
      onRequest: can(CHAT_USE),
    },
    async (request) => {
      const tour = await visibleTour(requireActor(request), request.params.id);
      const rows = await chatMessagesOf(db, tour.tourId, 1000);
      return rows.map((row) => ({
        id: row.id,
        user: { id: row.user_id, name: row.user_name },
        organizationId: row.organization_id,
        text: row.text,
        at: iso(row.posted_at)!,
      }));
    },
  );

  app.post(
    '/tours/:id/chat',
    {
      schema: { tags: ['tours'], summary: 'Post to the tour chat', ...toursContract.postChat },
      onRequest: can(CHAT_USE),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const { message } = request.body;
      const user = await app.platform.identity.loadUser(actor.userId);
      const { id, position } = await marketplace.postChatMessage(
        { actor, requestId: request.id },
        request.params.id,
        message,
        user?.name ?? 'User',
        new Date().toISOString(),
      );
      await runner.waitFor(['tourChat'], position);
      return reply.code(201).send({ id });
    },
  );
}

/** A tour as the API answers it to that caller (a driver without the price). */
export const tourAnswer = (tour: OpenedTour, actor: Actor) => ({
  id: tour.tourId,
  loadId: tour.loadId,
  loadGuid: tour.loadGuid,
  proposalId: tour.proposalId,
  shipperOrganizationId: tour.shipperOrganizationId,
  carrierOrganizationId: tour.carrierOrganizationId,
  status: tour.status,
  statusName: statusNameOf(tour.status),
  assignee: tour.assigneeId ? { id: tour.assigneeId, name: tour.assigneeName } : null,
  price: priceFor(actor, tour.price),
  eldTruckName: tour.eldTruckName,
  contractFileId: tour.contractFileId,
  stops: tour.stops.map((stop) => ({
    ...stop,
    arrived: tour.arrivedStopIds.includes(stop.id),
    departed: tour.departedStopIds.includes(stop.id),
  })),
  ratings: {
    shipperRated: tour.ratings.shipper !== null,
    carrierRated: tour.ratings.carrier !== null,
  },
  openedAt: tour.openedAt,
  updatedAt: tour.updatedAt,
});

export { isTourParty };
