import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { GenericStatus, loadTypes, Role, searchRadii, trailerTypes, TableAction } from '../../domain/catalog.ts';
import { carrierProposalActions, shipmentStatusOf, shipperLoadActions } from '../../domain/loads/loadRows.ts';
import { boundingBox } from '../../domain/loads/route.ts';
import {
  LOAD_CREATE, LOAD_EDIT, LOAD_GET, LOAD_IMPORT, LOADS_CARRIER, LOADS_SHIPPER, LOAD_DELETE, LOADS_PROPOSALS,
} from '../../domain/permissions.ts';
import {
  cancelLoadBodySchema, extendExpirationBodySchema, loadBodySchema, updateLoadBodySchema,
} from '../../domain/schemas/load.schema.ts';
import { NotFoundError, ValidationError } from '../../domain/shared/errors.ts';
import type { App } from '../app.ts';
import { isTourParty, type Caller } from '../commands/marketplace.ts';
import { can, isSuperadmin, requireActor, type Actor } from '../http/auth.ts';
import { actionsNamed, activeFilters, likePattern, numbersOf, orderOf, TableQuery, tableAnswer } from '../http/table.ts';
import { parseWith, statusName } from '../identity/accounts.ts';
import { latest } from '../identity/identity.ts';
import { baseLoadRow, money, type LoadRow } from '../queries/loadRows.ts';
import { LOADS_CSV_DEFAULT_MAX_ROWS, loadsCsvTemplate, loadsCsvTooManyRowsMessage, parseLoadsCsv } from '../integrations/csv/loadsCsv.ts';
import { readMultipart } from '../integrations/files/uploads.ts';
import { gazetteer } from '../integrations/places/gazetteer.ts';

const IdParams = z.object({ id: z.uuid('Not a valid id') });
const LooseBody = z.looseObject({});

/** Fills a stop's missing city and state from the gazetteer (the nearest town to its coordinates). */
const withPlaces = <B extends { locations: { latitude: number; longitude: number; city: string | null; state: string | null }[] }>(body: B): B => {
  if (body.locations.every((stop) => stop.city && stop.state)) return body;
  const places = gazetteer();
  return {
    ...body,
    locations: body.locations.map((stop) => {
      if (stop.city && stop.state) return stop;
      const place = places.reverse(stop.latitude, stop.longitude);
      return { ...stop, city: stop.city || place?.city || null, state: stop.state || place?.state || null };
    }),
  };
};

/** The read models a shipper's or carrier's next screen reads after a load command. */
export const MARKETPLACE_VIEWS = ['marketplace'] as const;

const SHIPPER_ORDER: Record<string, string> = {
  guid: 'l.guid', pickupTime: 'l.pickup_start', dropoffTime: 'l.dropoff_start', expiration: 'l.expiration', createdAt: 'l.created_at',
  weight: 'l.weight', status: 'l.status', proposals: 'l.proposals_count', 'loads.guid': 'l.guid', 'loads.expiration': 'l.expiration', 'Pickup time': 'l.pickup_start',
};
const CARRIER_ORDER: Record<string, string> = {
  guid: 'l.guid', pickupTime: 'l.pickup_start', dropoffTime: 'l.dropoff_start', expiration: 'l.expiration', weight: 'l.weight',
  distance: 'l.distance_miles', createdAt: 'l.created_at', 'loads.guid': 'l.guid', 'loads.expiration': 'l.expiration', 'Pickup time': 'l.pickup_start',
};

const EARTH_MILES = 3958.7613;
/** Great-circle miles between a row's point and a given point, in SQL. */
const milesFrom = (latColumn: string, lonColumn: string, latitude: number, longitude: number) => {
  const lat = sql`${latitude}::float8`;
  const lon = sql`${longitude}::float8`;
  return sql<number>`(2 * ${EARTH_MILES}::float8 * asin(least(1, sqrt(
    power(sin(radians(${sql.ref(latColumn)} - ${lat}) / 2), 2)
    + cos(radians(${lat})) * cos(radians(${sql.ref(latColumn)})) * power(sin(radians(${sql.ref(lonColumn)} - ${lon}) / 2), 2)))))`;
};

const Area = z.object({
  latitude: z.coerce.number().min(-90).max(90),
  longitude: z.coerce.number().min(-180).max(180),
  radius: z.coerce.number().refine((radius) => (searchRadii as readonly number[]).includes(radius), { error: `radius is one of ${searchRadii.join(', ')} miles` }),
});
const areaOf = (values: unknown[] | undefined, name: string) => {
  if (!values) return null;
  const parsed = Area.safeParse(values[0]);
  if (!parsed.success) throw ValidationError.field('filters', `${name}: ${parsed.error.issues[0]?.message ?? 'expected {latitude, longitude, radius}'}`);
  return parsed.data;
};
const instantOf = (values: unknown[] | undefined, name: string) => {
  if (!values) return null;
  const value = String(values[0]);
  if (Number.isNaN(Date.parse(value))) throw ValidationError.field('filters', `${name} must be a date and time`);
  return new Date(value).toISOString();
};

/**
 * Loads: posting and editing (with every rule of the specification), cancelling, extending the
 * offer, the shipper's table, the carriers' marketplace, one load, the CSV import and the saved
 * locations.
 */
export async function loadsRoutes(app: App) {
  const { runner, marketplace } = app.platform;
  const db = app.platform.database.db as unknown as Kysely<any>;
  const callerOf = (request: { id: string }, actor: Actor): Caller => ({ actor, requestId: request.id });

  app.post('/loads', {
    schema: { tags: ['loads'], summary: 'Post a load (specification section 3, "Load (sent on create)")', body: LooseBody },
    onRequest: can(LOAD_CREATE),
  }, async (request, reply) => {
    const actor = requireActor(request);
    const now = new Date().toISOString();
    const body = withPlaces(parseWith(loadBodySchema(now), request.body));
    const { id, guid, position } = await marketplace.postLoad(callerOf(request, actor), body, now);
    await runner.waitFor(MARKETPLACE_VIEWS, position);
    return reply.code(201).send({ id, guid });
  });

  app.put('/loads', {
    schema: { tags: ['loads'], summary: 'Edit a load (body plus loadId) or extend its offer ({loadId, newExpiration})', body: LooseBody },
    onRequest: can(LOAD_EDIT),
  }, async (request) => {
    const actor = requireActor(request);
    const now = new Date().toISOString();
    const raw = request.body as Record<string, unknown>;
    let position;
    if ('newExpiration' in raw && !('locations' in raw)) {
      const id = z.uuid().safeParse(raw.loadId);
      const current = id.success ? await marketplace.loadLoad(id.data) : null;
      const { loadId, expiration, expirationTimezone } = parseWith(extendExpirationBodySchema(now, current?.details.expirationTimezone), raw);
      position = await marketplace.extendExpiration(callerOf(request, actor), loadId, expiration, expirationTimezone ?? undefined, now);
    } else {
      const { loadId, ...body } = parseWith(updateLoadBodySchema(now), raw);
      position = await marketplace.updateLoad(callerOf(request, actor), loadId, withPlaces(body), now);
    }
    await runner.waitFor(MARKETPLACE_VIEWS, position);
    return { message: 'Load updated' };
  });

  app.put('/loads/:id/status', {
    schema: { tags: ['loads'], summary: 'Cancel a load with a message ({status: 7, message})', params: IdParams, body: LooseBody },
    onRequest: can(LOAD_EDIT, LOAD_DELETE),
  }, async (request) => {
    const actor = requireActor(request);
    const now = new Date().toISOString();
    const { message } = parseWith(cancelLoadBodySchema, request.body);
    const position = await marketplace.cancelLoad(callerOf(request, actor), request.params.id, message, now);
    await runner.waitFor(MARKETPLACE_VIEWS, position);
    return { id: request.params.id, status: GenericStatus.Canceled, statusName: statusName(GenericStatus.Canceled), message: 'Load canceled' };
  });

  app.get('/loads/shipper', {
    schema: { tags: ['loads'], summary: "The shipper's loads with their shipment status and offers", querystring: TableQuery },
    onRequest: can(LOADS_SHIPPER),
  }, async (request) => {
    const actor = requireActor(request);
    const query = request.query;
    const filters = activeFilters(query);
    const statuses = numbersOf(filters.get('status'), null, 'status');
    const { column, direction } = orderOf(query, SHIPPER_ORDER, 'l.created_at');
    let base = db.selectFrom('loads_view as l').leftJoin('tours_view as t', 't.id', 'l.tour_id')
      .leftJoin('proposals_seen as s', (join) => join.onRef('s.load_id', '=', 'l.id').on('s.user_id', '=', actor.userId));
    if (!isSuperadmin(actor)) base = base.where('l.shipper_organization_id', '=', actor.organizationId ?? '00000000-0000-0000-0000-000000000000');
    if (statuses) base = base.where((eb) => eb.or([eb('l.status', 'in', statuses), eb('l.tour_status', 'in', statuses)]));
    if (query.search) {
      const pattern = likePattern(query.search);
      base = base.where((eb) => eb.or([
        eb('l.guid', 'ilike', pattern), eb('l.commodity', 'ilike', pattern), eb('l.ref_number', 'ilike', pattern),
        eb('l.pickup_address', 'ilike', pattern), eb('l.dropoff_address', 'ilike', pattern),
      ]));
    }
    const { total } = await base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
    const rows = await base.selectAll('l')
      .select(['t.shipper_rated', 't.carrier_rated', 't.assignee_name'])
      .select(sql<number>`(SELECT count(*)::int FROM proposals_view p WHERE p.load_id = l.id AND p.status IN (10, 11) AND (s.seen_at IS NULL OR p.submitted_at > s.seen_at))`.as('new_proposals'))
      .orderBy(sql.ref(column), direction === 'ASC' ? 'asc' : 'desc').orderBy('l.id')
      .limit(query.pageSize).offset((query.page - 1) * query.pageSize).execute();
    const data = rows.map((row: LoadRow) => {
      const facts = {
        loadStatus: row.status, tourStatus: row.tour_status ?? null, openProposals: row.open_proposals, proposalsCount: row.proposals_count,
        shipperRated: Boolean(row.shipper_rated), carrierRated: Boolean(row.carrier_rated),
      };
      const shipment = shipmentStatusOf(facts);
      return {
        ...baseLoadRow(row),
        status: shipment.id,
        statusKey: row.status === GenericStatus.Paused ? 'paused' : shipment.key,
        statusName: row.status === GenericStatus.Paused ? 'Paused' : shipment.name,
        statusColor: shipment.color.name,
        proposals: row.proposals_count as number,
        openProposals: row.open_proposals as number,
        newProposals: Number(row.new_proposals),
        bestPrice: money(row.best_price),
        price: money(row.price),
        tourId: row.tour_id as string | null,
        driver: row.assignee_name ?? null,
        actions: shipperLoadActions(facts),
      };
    });
    return tableAnswer(query, Number(total), data, actionsNamed([1, 2, 3, 4, 6, 7, 8, 11, 12, 16]));
  });

  app.get('/loads/carrier', {
    schema: { tags: ['loads'], summary: 'The marketplace: open loads, searched by origin and destination radius, equipment, dates and weight', querystring: TableQuery },
    onRequest: can(LOADS_CARRIER),
  }, async (request) => {
    const actor = requireActor(request);
    const query = request.query;
    const filters = activeFilters(query);
    const origin = areaOf(filters.get('origin'), 'origin');
    const destination = areaOf(filters.get('destination'), 'destination');
    const equipment = numbersOf(filters.get('equipment'), trailerTypes.map((type) => type.id), 'equipment');
    const loadType = numbersOf(filters.get('loadType'), loadTypes.map((type) => type.id), 'loadType');
    const pickupFrom = instantOf(filters.get('pickupFrom'), 'pickupFrom');
    const pickupTo = instantOf(filters.get('pickupTo'), 'pickupTo');
    const maxWeight = filters.get('maxWeight') ? Number(filters.get('maxWeight')![0]) : null;
    if (maxWeight !== null && !(maxWeight > 0)) throw ValidationError.field('filters', 'maxWeight must be a positive number');
    const { column, direction } = orderOf(query, CARRIER_ORDER, 'l.pickup_start', 'ASC');
    const now = new Date().toISOString();
    const orgId = actor.organizationId ?? '00000000-0000-0000-0000-000000000000';

    let base = db.selectFrom('loads_view as l').innerJoin('organizations_view as o', 'o.id', 'l.shipper_organization_id')
      .leftJoin('proposals_view as p', (join) => join.onRef('p.load_id', '=', 'l.id').on('p.carrier_organization_id', '=', orgId))
      .where('l.status', '=', GenericStatus.Created).where('l.expiration', '>', now).where('o.status', '=', GenericStatus.Active);
    for (const [area, prefix] of [[origin, 'pickup'], [destination, 'dropoff']] as const) {
      if (!area) continue;
      const box = boundingBox(area, area.radius);
      base = base.where(sql<boolean>`${sql.ref(`l.${prefix}_latitude`)} BETWEEN ${box.minLat}::float8 AND ${box.maxLat}::float8`)
        .where(sql<boolean>`${sql.ref(`l.${prefix}_longitude`)} BETWEEN ${box.minLon}::float8 AND ${box.maxLon}::float8`)
        .where(milesFrom(`l.${prefix}_latitude`, `l.${prefix}_longitude`, area.latitude, area.longitude), '<=', area.radius);
    }
    if (equipment) base = base.where(sql<boolean>`l.equipment && ${sql`${`{${equipment.join(',')}}`}::integer[]`}`);
    if (loadType) base = base.where('l.load_type_id', 'in', loadType);
    if (pickupFrom) base = base.where('l.pickup_start', '>=', pickupFrom);
    if (pickupTo) base = base.where('l.pickup_start', '<=', pickupTo);
    if (maxWeight !== null) base = base.where(sql<boolean>`l.weight <= ${maxWeight}::float8`);
    if (query.search) {
      const pattern = likePattern(query.search);
      base = base.where((eb) => eb.or([eb('l.guid', 'ilike', pattern), eb('l.commodity', 'ilike', pattern), eb('l.pickup_address', 'ilike', pattern), eb('l.dropoff_address', 'ilike', pattern)]));
    }
    // The page and the number of matches in one scan: the count is a window over every match.
    let selection = base.selectAll('l').select(['o.name as shipper_name', 'p.id as my_proposal_id', 'p.status as my_proposal_status', 'p.price as my_proposal_price', 'p.counter_price as my_counter_price'])
      .select(sql<string>`count(*) OVER ()`.as('total_matches'));
    if (origin) selection = selection.select(milesFrom('l.pickup_latitude', 'l.pickup_longitude', origin.latitude, origin.longitude).as('origin_miles'));
    if (destination) selection = selection.select(milesFrom('l.dropoff_latitude', 'l.dropoff_longitude', destination.latitude, destination.longitude).as('destination_miles'));
    const rows = await selection.orderBy(sql.ref(column), direction === 'ASC' ? 'asc' : 'desc').orderBy('l.id')
      .limit(query.pageSize).offset((query.page - 1) * query.pageSize).execute();
    // A page past the last match has no row to carry the count.
    const total = rows.length > 0
      ? Number((rows[0] as LoadRow).total_matches)
      : Number((await base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow()).total);
    const data = rows.map((row: LoadRow) => ({
      ...baseLoadRow(row),
      status: row.status as number,
      statusName: statusName(row.status),
      shipper: row.shipper_name as string,
      originDistance: row.origin_miles === undefined ? null : Math.round(Number(row.origin_miles) * 10) / 10,
      destinationDistance: row.destination_miles === undefined ? null : Math.round(Number(row.destination_miles) * 10) / 10,
      myProposal: row.my_proposal_id
        ? { id: row.my_proposal_id, status: row.my_proposal_status, statusName: statusName(row.my_proposal_status), price: money(row.my_proposal_price), counterPrice: money(row.my_counter_price) }
        : null,
      actions: carrierProposalActions(row.my_proposal_status ?? null, true),
    }));
    return tableAnswer(query, Number(total), data, actionsNamed([TableAction.View, TableAction.MakeOffer, TableAction.Withdraw]));
  });

  app.get('/loads/list/getSavedLocations', {
    schema: { tags: ['loads'], summary: "The organization's saved locations" },
    onRequest: can(LOAD_CREATE, LOAD_EDIT),
  }, async (request) => {
    const actor = requireActor(request);
    if (!actor.organizationId) return [];
    const rows = await db.selectFrom('saved_locations_view').selectAll().where('organization_id', '=', actor.organizationId).orderBy('name').execute();
    return rows.map((row: LoadRow) => ({
      id: row.id, name: row.name, address: row.address, city: row.city, state: row.state, latitude: Number(row.latitude), longitude: Number(row.longitude),
      contactName: row.contact_name, contactPhone: row.contact_phone, number: row.number, locationType: row.location_type,
    }));
  });

  app.get('/loads/batchImport/template', {
    schema: { tags: ['loads'], summary: 'The CSV template: the header row and one example row' },
    onRequest: can(LOAD_IMPORT),
  }, async (_request, reply) => reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', 'attachment; filename="loads-template.csv"')
    .send(loadsCsvTemplate(new Date().toISOString())));

  app.post('/loads/batchImport', {
    schema: { tags: ['loads'], summary: 'Import loads from a CSV file (csv_loads_file): all rows or none' },
    onRequest: can(LOAD_IMPORT),
  }, async (request, reply) => {
    const actor = requireActor(request);
    await marketplace.requireActiveOrganization(actor);
    const { files } = await readMultipart(request, { files: { csv_loads_file: { required: true, accept: 'csv' } } });
    const file = files.csv_loads_file!;
    const now = new Date().toISOString();
    const places = gazetteer();
    const parsed = parseLoadsCsv(file.buffer, { now, geocode: (text: string) => places.geocode(text) });
    if (!parsed.ok) {
      // Too many rows is a payload too large (413); any other problem is the rows' own (400).
      const status = parsed.message === loadsCsvTooManyRowsMessage(LOADS_CSV_DEFAULT_MAX_ROWS) ? 413 : 400;
      return reply.code(status).send({ statusCode: status, error: status === 413 ? 'Payload Too Large' : 'Bad Request', message: parsed.message, errors: parsed.errors });
    }
    const caller = callerOf(request, actor);
    const ids: string[] = [];
    let last = null;
    for (const body of parsed.loads) {
      const { id, position } = await marketplace.postLoad(caller, withPlaces(body), now);
      ids.push(id);
      last = latest(last, position);
    }
    await runner.waitFor(MARKETPLACE_VIEWS, last, 10_000);
    return reply.code(201).send({ created: ids.length, ids });
  });

  app.get('/loads/:id', {
    schema: { tags: ['loads'], summary: 'One load with its stops; facility contacts only for those who may see them', params: IdParams },
    onRequest: can(LOAD_GET, LOADS_SHIPPER, LOADS_CARRIER),
  }, async (request) => {
    const actor = requireActor(request);
    const load = await marketplace.loadLoad(request.params.id);
    if (!load) throw new NotFoundError('Load not found');
    const access = await loadAccess(db, actor, load);
    if (!access.visible) throw new NotFoundError('Load not found');
    const d = load.details;
    return {
      id: load.loadId,
      guid: load.guid,
      status: load.status,
      statusName: load.status === GenericStatus.Paused ? 'Paused' : statusName(load.status),
      shipperOrganizationId: load.shipperOrganizationId,
      shipper: access.shipperName,
      postedAt: load.postedAt,
      updatedAt: load.updatedAt,
      pickupTimestampStart: d.pickupStart, pickupTimestampEnd: d.pickupEnd, pickupTimezone: d.pickupTimezone,
      dropOffTimestampStart: d.dropoffStart, dropOffTimestampEnd: d.dropoffEnd, dropoffTimezone: d.dropoffTimezone,
      expiration: d.expiration, expirationTimezone: d.expirationTimezone,
      loadTypeId: d.loadTypeId, rate: d.rate, rateTypeId: d.rateTypeId, carriersSortingTypeId: d.carriersSortingTypeId,
      loadAccessories: d.accessories, loadEquipment: d.equipment, description: d.description, weight: d.weight, commodity: d.commodity, refNumber: d.refNumber,
      locations: d.stops.map((stop) => ({
        id: stop.id, locationType: stop.locationType, address: stop.address, city: stop.city, state: stop.state, name: stop.name,
        latitude: stop.latitude, longitude: stop.longitude,
        contactName: access.contacts ? stop.contactName : null,
        contactPhone: access.contacts ? stop.contactPhone : null,
        number: access.contacts ? stop.number : null,
      })),
      contactsHidden: !access.contacts,
      acceptedProposalId: access.party ? load.acceptedProposalId : null,
      carrierOrganizationId: access.party ? load.carrierOrganizationId : null,
      price: access.party ? load.price : null,
      tourId: access.party ? load.tourId : null,
      contractFileId: access.party ? load.contractFileId : null,
      cancelMessage: load.cancelMessage,
      canEdit: access.owner && (load.status === GenericStatus.Created || load.status === GenericStatus.Paused),
    };
  });

  app.get('/loads/:id/proposals/map', {
    schema: { tags: ['loads'], summary: "Map markers: the load's stops and each offer's truck", params: IdParams },
    onRequest: can(LOADS_PROPOSALS, LOAD_GET),
  }, async (request) => {
    const actor = requireActor(request);
    const load = await marketplace.loadLoad(request.params.id);
    if (!load) throw new NotFoundError('Load not found');
    const access = await loadAccess(db, actor, load);
    if (!access.owner) throw new NotFoundError('Load not found');
    const markers: Record<string, unknown>[] = load.details.stops.map((stop) => ({
      latitude: stop.latitude, longitude: stop.longitude, type: 'specialMarker', name: stop.name, address: stop.address,
      additionalInfo: stop.locationType === 1 ? 'Pickup' : stop.locationType === 4 ? 'Dropoff' : stop.locationType === 2 ? 'Extra pickup' : 'Extra dropoff',
      price: null,
      contactDetails: { name: stop.name, contactName: stop.contactName, contactPhone: stop.contactPhone, notes: stop.number },
    }));
    const proposals = await db.selectFrom('proposals_view as p').innerJoin('organizations_view as o', 'o.id', 'p.carrier_organization_id')
      .select(['p.id', 'p.price', 'p.status', 'p.eld_truck_name', 'p.message', 'o.id as org_id', 'o.name', 'o.address', 'o.person', 'o.phone'])
      .where('p.load_id', '=', load.loadId).where('p.status', 'in', [10, 11, 5, 14]).execute();
    for (const proposal of proposals as LoadRow[]) {
      const truck = await truckPositionOf(db, proposal.org_id, proposal.eld_truck_name);
      if (!truck) continue;
      markers.push({
        latitude: truck.latitude, longitude: truck.longitude, type: 'truck', name: proposal.name, address: proposal.address,
        additionalInfo: proposal.eld_truck_name ?? '', price: money(proposal.price), proposalId: proposal.id,
        contactDetails: { name: proposal.name, contactName: proposal.person, contactPhone: proposal.phone, notes: proposal.message },
      });
    }
    return markers;
  });
}

/**
 * Who may see a load and how much: its shipper (and a Superadmin) everything; the accepted carrier
 * and its assigned driver everything, contacts included; a carrier with an offer on it, or any
 * carrier while it is open on the marketplace, the load without facility contacts.
 */
export async function loadAccess(db: Kysely<any>, actor: Actor, load: { loadId: string; shipperOrganizationId: string; carrierOrganizationId: string | null; tourId: string | null; status: number; details: { expiration: string } }) {
  const shipper = await db.selectFrom('organizations_view').select(['name', 'status']).where('id', '=', load.shipperOrganizationId).executeTakeFirst();
  const base = { shipperName: (shipper?.name as string | undefined) ?? null };
  if (isSuperadmin(actor) || actor.organizationId === load.shipperOrganizationId) {
    return { ...base, visible: actor.roleId !== Role.Driver, contacts: true, owner: actor.roleId !== Role.Driver, party: true };
  }
  if (actor.roleId === Role.Driver) {
    if (!load.tourId) return { ...base, visible: false, contacts: false, owner: false, party: false };
    const tour = await db.selectFrom('tours_view').select(['shipper_organization_id', 'carrier_organization_id', 'assignee_id']).where('id', '=', load.tourId).executeTakeFirst();
    const party = Boolean(tour && isTourParty(actor, { shipperOrganizationId: tour.shipper_organization_id, carrierOrganizationId: tour.carrier_organization_id, assigneeId: tour.assignee_id }));
    return { ...base, visible: party, contacts: party, owner: false, party };
  }
  if (actor.roleId === Role.Carrier && actor.organizationId) {
    if (load.carrierOrganizationId === actor.organizationId) return { ...base, visible: true, contacts: true, owner: false, party: true };
    const proposal = await db.selectFrom('proposals_view').select('id').where('load_id', '=', load.loadId).where('carrier_organization_id', '=', actor.organizationId).executeTakeFirst();
    const open = load.status === GenericStatus.Created && load.details.expiration > new Date().toISOString() && shipper?.status === GenericStatus.Active;
    return { ...base, visible: Boolean(proposal) || open, contacts: false, owner: false, party: false };
  }
  return { ...base, visible: false, contacts: false, owner: false, party: false };
}

/** The last known position of a carrier's truck by its ELD name: from its latest tour's trail. */
async function truckPositionOf(db: Kysely<any>, carrierOrganizationId: string, truckName: string | null) {
  if (!truckName) return null;
  const row = await db.selectFrom('tour_positions_view as p').innerJoin('tours_view as t', 't.id', 'p.tour_id')
    .select(['p.latitude', 'p.longitude']).where('t.carrier_organization_id', '=', carrierOrganizationId).where('t.eld_truck_name', '=', truckName)
    .orderBy('p.recorded_at', 'desc').limit(1).executeTakeFirst();
  return row ? { latitude: Number(row.latitude), longitude: Number(row.longitude) } : null;
}
