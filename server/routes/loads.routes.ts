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
  carrierProposalActions,
  shipmentStatusOf,
  shipperLoadActions,
} from '../../domain/loads/loadRows.ts';
import {
  LOAD_CREATE,
  LOAD_EDIT,
  LOAD_GET,
  LOAD_IMPORT,
  LOADS_CARRIER,
  LOADS_SHIPPER,
  LOAD_DELETE,
  LOADS_PROPOSALS,
} from '../../domain/permissions.ts';
import {
  CancelLoadBodySchema,
  EditLoadBodySchema,
  LoadIdParamsSchema as IdParams,
  LoadsImportBodySchema,
  loadsAnswers,
  PostLoadBodySchema,
  type ProposalMapMarker,
} from '../../domain/contracts/loads.contract.ts';
import {
  cancelLoadBodySchema,
  extendExpirationBodySchema,
  LOAD_WEIGHT_MAX,
  loadBodySchema,
  updateLoadBodySchema,
} from '../../domain/schemas/load.schema.ts';
import { NotFoundError, ValidationError } from '../../domain/shared/errors.ts';
import {
  CARRIER_ORDER,
  marketplacePage,
  offersWithCarriers,
  savedLocationsOf,
  SHIPPER_ORDER,
  shipperLoadsPage,
} from '../../projections/marketplace/marketplace.queries.ts';
import type { App } from '../http/routeContext.ts';
import type { Caller } from '../commands/marketplace.ts';
import { can, isSuperadmin, requireActor, type Actor } from '../http/auth.ts';
import { errorBody } from '../http/errors.ts';
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
import { parseWith } from '../http/parseWith.ts';
import { latest } from '../eventstore/eventStore.ts';
import { loadAccess } from '../http/loadAccess.ts';
import { baseLoadRow, money } from '../http/loadRows.ts';
import { createOrganizationNames } from '../http/organizationNames.ts';
import {
  LOADS_CSV_DEFAULT_MAX_ROWS,
  loadsCsvTemplate,
  loadsCsvTooManyRowsMessage,
  parseLoadsCsv,
} from '../integrations/csv/loadsCsv.ts';
import { readMultipart } from '../integrations/files/uploads.ts';
import { gazetteer } from '../integrations/places/gazetteer.ts';

/** Fills a stop's missing city and state from the gazetteer (the nearest town to its coordinates). */
const withPlaces = <
  B extends {
    locations: { latitude: number; longitude: number; city: string | null; state: string | null }[];
  },
>(
  body: B,
): B => {
  if (body.locations.every((stop) => stop.city && stop.state)) return body;
  const places = gazetteer();
  return {
    ...body,
    locations: body.locations.map((stop) => {
      if (stop.city && stop.state) return stop;
      const place = places.reverse(stop.latitude, stop.longitude);
      return {
        ...stop,
        city: stop.city || place?.city || null,
        state: stop.state || place?.state || null,
      };
    }),
  };
};

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

/**
 * Loads: posting and editing (with every rule of the specification), cancelling, extending the
 * offer, the shipper's table, the carriers' marketplace, one load, the CSV import and the saved
 * locations.
 */
export async function loadsRoutes(app: App) {
  const { runner, marketplace } = app.platform;
  const { db } = app.platform.database;
  const callerOf = (request: { id: string }, actor: Actor): Caller => ({
    actor,
    requestId: request.id,
  });
  const organizationNames = createOrganizationNames({
    db,
    onCommitted: (listener) => runner.onCommitted(listener),
  });
  app.addHook('onClose', async () => organizationNames.close());

  app.post(
    '/loads',
    {
      schema: {
        tags: ['loads'],
        summary: 'Post a load (specification section 3, "Load (sent on create)")',
        body: PostLoadBodySchema,
        response: loadsAnswers.post,
      },
      onRequest: can(LOAD_CREATE),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const body = withPlaces(parseWith(loadBodySchema(now), request.body));
      const { id, guid, position } = await marketplace.postLoad(
        callerOf(request, actor),
        body,
        now,
      );
      app.consistency.wrote(request, reply, position);
      return reply.code(201).send({ id, guid });
    },
  );

  app.put(
    '/loads',
    {
      schema: {
        tags: ['loads'],
        summary: 'Edit a load (body plus loadId) or extend its offer ({loadId, newExpiration})',
        body: EditLoadBodySchema,
        response: loadsAnswers.edit,
      },
      onRequest: can(LOAD_EDIT),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const raw = request.body as Record<string, unknown>;
      let position;
      if ('newExpiration' in raw && !('locations' in raw)) {
        const id = z.uuid().safeParse(raw.loadId);
        const current = id.success ? await marketplace.loadLoad(id.data) : null;
        const { loadId, expiration, expirationTimezone } = parseWith(
          extendExpirationBodySchema(now, current?.details.expirationTimezone),
          raw,
        );
        position = await marketplace.extendExpiration(
          callerOf(request, actor),
          loadId,
          expiration,
          expirationTimezone ?? undefined,
          now,
        );
      } else {
        const { loadId, ...body } = parseWith(updateLoadBodySchema(now), raw);
        position = await marketplace.updateLoad(
          callerOf(request, actor),
          loadId,
          withPlaces(body),
          now,
        );
      }
      app.consistency.wrote(request, reply, position);
      return { message: 'Load updated' };
    },
  );

  app.put(
    '/loads/:id/status',
    {
      schema: {
        tags: ['loads'],
        summary: 'Cancel a load with a message ({status: 7, message})',
        params: IdParams,
        body: CancelLoadBodySchema,
        response: loadsAnswers.cancel,
      },
      onRequest: can(LOAD_EDIT, LOAD_DELETE),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const { message } = parseWith(cancelLoadBodySchema, request.body);
      const position = await marketplace.cancelLoad(
        callerOf(request, actor),
        request.params.id,
        message,
        now,
      );
      app.consistency.wrote(request, reply, position);
      return {
        id: request.params.id,
        status: GenericStatus.Canceled,
        statusName: statusName(GenericStatus.Canceled),
        message: 'Load canceled',
      };
    },
  );

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
        querystring: TableQuery,
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
      const { total, rows } = await marketplacePage(
        db,
        {
          carrierOrganizationId: actor.organizationId,
          now: new Date().toISOString(),
          origin,
          destination,
          equipment,
          loadTypes: loadType,
          pickupFrom,
          pickupTo,
          maxWeight,
        },
        pageOf(query, orderOf(query, CARRIER_ORDER, 'l.pickup_start', 'ASC')),
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
        actions: carrierProposalActions(row.my_proposal_status ?? null, true),
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

  app.get(
    '/loads/batchImport/template',
    {
      schema: {
        tags: ['loads'],
        summary: 'The CSV template: the header row and one example row',
        response: loadsAnswers.template,
      },
      onRequest: can(LOAD_IMPORT),
    },
    async (_request, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="loads-template.csv"')
        .send(loadsCsvTemplate(new Date().toISOString())),
  );

  app.post(
    '/loads/batchImport',
    {
      schema: {
        tags: ['loads'],
        summary: 'Import loads from a CSV file (csv_loads_file): all rows or none',
        consumes: ['multipart/form-data'],
        body: LoadsImportBodySchema,
        response: loadsAnswers.batchImport,
      },
      onRequest: can(LOAD_IMPORT),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      await marketplace.requireActiveOrganization(actor);
      const { files } = await readMultipart(request, {
        files: { csv_loads_file: { required: true, accept: 'csv' } },
      });
      const file = files.csv_loads_file!;
      const now = new Date().toISOString();
      const places = gazetteer();
      const parsed = parseLoadsCsv(file.buffer, {
        now,
        geocode: (text: string) => places.geocode(text),
      });
      if (!parsed.ok) {
        // Too many rows is a payload too large (413); any other problem is the rows' own (400).
        const status =
          parsed.message === loadsCsvTooManyRowsMessage(LOADS_CSV_DEFAULT_MAX_ROWS) ? 413 : 400;
        return reply
          .code(status)
          .send({ ...errorBody(status, parsed.message), errors: parsed.errors });
      }
      const caller = callerOf(request, actor);
      const ids: string[] = [];
      let last = null;
      for (const body of parsed.loads) {
        const { id, position } = await marketplace.postLoad(caller, withPlaces(body), now);
        ids.push(id);
        last = latest(last, position);
      }
      app.consistency.wrote(request, reply, last);
      return reply.code(201).send({ created: ids.length, ids });
    },
  );

  app.get(
    '/loads/:id',
    {
      schema: {
        tags: ['loads'],
        summary: 'One load with its stops; facility contacts only for those who may see them',
        params: IdParams,
        response: loadsAnswers.one,
      },
      onRequest: can(LOAD_GET, LOADS_SHIPPER, LOADS_CARRIER),
    },
    async (request) => {
      const actor = requireActor(request);
      const load = await marketplace.loadLoad(request.params.id);
      if (!load) throw new NotFoundError('Load not found');
      const access = await loadAccess(db, actor, load, organizationNames);
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
        pickupTimestampStart: d.pickupStart,
        pickupTimestampEnd: d.pickupEnd,
        pickupTimezone: d.pickupTimezone,
        dropOffTimestampStart: d.dropoffStart,
        dropOffTimestampEnd: d.dropoffEnd,
        dropoffTimezone: d.dropoffTimezone,
        expiration: d.expiration,
        expirationTimezone: d.expirationTimezone,
        loadTypeId: d.loadTypeId,
        rate: d.rate,
        rateTypeId: d.rateTypeId,
        carriersSortingTypeId: d.carriersSortingTypeId,
        loadAccessories: d.accessories,
        loadEquipment: d.equipment,
        description: d.description,
        weight: d.weight,
        commodity: d.commodity,
        refNumber: d.refNumber,
        locations: d.stops.map((stop) => ({
          id: stop.id,
          locationType: stop.locationType,
          address: stop.address,
          city: stop.city,
          state: stop.state,
          name: stop.name,
          latitude: stop.latitude,
          longitude: stop.longitude,
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
        canEdit:
          access.owner &&
          (load.status === GenericStatus.Created || load.status === GenericStatus.Paused),
      };
    },
  );

  app.get(
    '/loads/:id/proposals/map',
    {
      schema: {
        tags: ['loads'],
        summary: "Map markers: the load's stops and each offer's truck",
        params: IdParams,
        response: loadsAnswers.map,
      },
      onRequest: can(LOADS_PROPOSALS, LOAD_GET),
    },
    async (request) => {
      const actor = requireActor(request);
      const load = await marketplace.loadLoad(request.params.id);
      if (!load) throw new NotFoundError('Load not found');
      const access = await loadAccess(db, actor, load, organizationNames);
      if (!access.owner) throw new NotFoundError('Load not found');
      const markers: ProposalMapMarker[] = load.details.stops.map((stop) => ({
        latitude: stop.latitude,
        longitude: stop.longitude,
        type: 'specialMarker' as const,
        name: stop.name,
        address: stop.address,
        additionalInfo:
          stop.locationType === 1
            ? 'Pickup'
            : stop.locationType === 4
              ? 'Dropoff'
              : stop.locationType === 2
                ? 'Extra pickup'
                : 'Extra dropoff',
        price: null,
        contactDetails: {
          name: stop.name,
          contactName: stop.contactName,
          contactPhone: stop.contactPhone,
          notes: stop.number,
        },
      }));
      const proposals = await offersWithCarriers(db, load.loadId);
      for (const proposal of proposals) {
        // Where the carrier's ELD service says the offered truck is now; none when the carrier shares no ELD position for it.
        const truck = await app.platform.eld.services.truckNamed(
          proposal.org_id,
          proposal.eld_truck_name,
        );
        if (!truck) continue;
        markers.push({
          latitude: truck.latitude,
          longitude: truck.longitude,
          type: 'truck' as const,
          name: proposal.name,
          address: proposal.address,
          additionalInfo: proposal.eld_truck_name ?? '',
          price: money(proposal.price),
          proposalId: proposal.id,
          contactDetails: {
            name: proposal.name,
            contactName: proposal.person,
            contactPhone: proposal.phone,
            notes: proposal.message,
          },
        });
      }
      return markers;
    },
  );
}
