import { GenericStatus, Role, tourStatuses } from '../../domain/catalog.ts';
import { TOUR_ASSIGNEES_LIST, TOURS_ALL, TOURS_ASSIGNED } from '../../domain/permissions.ts';
import {
  activeToursOfCarrier,
  TOUR_ORDER,
  toursPage,
} from '../../projections/marketplace/marketplace.queries.ts';
import { organizationUsers } from '../../projections/users/users.queries.ts';
import { toursContract } from '../../domain/contracts/tours.contract.ts';
import type { App } from '../http/routeContext.ts';
import { can, isSuperadmin, requireActor, type Actor } from '../http/auth.ts';
import { createTrustReader } from '../http/loadTrust.ts';
import {
  actionsNamed,
  activeFilters,
  numbersOf,
  orderOf,
  pageOf,
  TableQuery,
  tableAnswer,
} from '../http/table.ts';
import { scopeOf, rowOf } from './tourAnswers.ts';

/** The tours tables: the organization's tours, a driver's assigned tours, and the drivers one may assign. */
export function tourBoardRoutes(app: App) {
  const { db } = app.platform.database;
  const trustReader = createTrustReader({
    db,
    store: app.platform.store,
    runner: app.platform.runner,
  });

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
    // The loads' trust flags are their shipper's (and a Superadmin's) to weigh.
    const shipperSide = (row: (typeof rows)[number]) =>
      isSuperadmin(actor) ||
      (actor.roleId !== Role.Driver && row.shipper_organization_id === actor.organizationId);
    const trust = await trustReader.ofLoads(
      rows.filter(shipperSide).map((row) => row.load_id as string),
    );
    return tableAnswer(
      query,
      total,
      rows.map((row) => {
        const answer = rowOf(actor, row);
        const flags = shipperSide(row) ? trust.get(row.load_id as string) : undefined;
        return flags ? { ...answer, trust: flags } : answer;
      }),
      actionsNamed([1, 3, 6, 7, 8, 9, 10, 12]),
    );
  };

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
}
