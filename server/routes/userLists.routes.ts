import { z } from 'zod';
import { Role, roles, statusName, type OrganizationType } from '../../domain/catalog.ts';
import {
  DISPLAY_USERS_SIDEMENU,
  USER_ACTIVATE,
  USER_BLOCK,
  USER_DELETE,
  USER_UPDATE,
  USERS_CARRIERS,
  USERS_SHIPPERS,
  hasAny,
} from '../../domain/permissions.ts';
import { ValidationError } from '../../domain/shared/errors.ts';
import {
  ORGANIZATION_ORDER,
  organizationsPage,
} from '../../projections/organizations/organizations.queries.ts';
import { USER_ORDER, usersPage } from '../../projections/users/users.queries.ts';
import type { App } from '../http/routeContext.ts';
import { can, isSuperadmin, requireActor, type Actor } from '../http/auth.ts';
import {
  activeFilters,
  numbersOf,
  orderOf,
  pageOf,
  TableQuery,
  tableAnswer,
} from '../http/table.ts';
import {
  organizationsTableContract,
  usersTableContract,
  type OrganizationRow,
  type UserRow,
} from '../../domain/contracts/users.contract.ts';

/** Row action ids of the table protocol (docs/api.md); 17 Delete is the users table's, on a driver's row. */
const Action = { View: 1, Edit: 2, Activate: 13, Block: 14, Delete: 17 } as const;
const actionList = (...ids: number[]) =>
  ids.map((id) => ({ id, name: Object.entries(Action).find(([, value]) => value === id)![0] }));

/** The activate and block actions the caller may take now on a row of that status. */
const statusActions = (actor: Actor, status: number | null): number[] => {
  if (status === null) return [];
  const actions: number[] = [];
  if (status !== 2 && hasAny(actor.permissions, USER_ACTIVATE)) actions.push(Action.Activate);
  if (status !== 3 && hasAny(actor.permissions, USER_BLOCK)) actions.push(Action.Block);
  return actions;
};

/**
 * The user administration's tables: the users (Superadmin: all; others: their organization), and
 * the shippers' and carriers' organizations with their first user.
 */
export async function userListsRoutes(app: App) {
  const { db } = app.platform.database;

  app.get(
    '/users',
    {
      schema: {
        tags: ['users'],
        summary: 'Users table (Superadmin: all; others: their organization)',
        querystring: TableQuery,
        ...usersTableContract,
      },
      onRequest: can(DISPLAY_USERS_SIDEMENU),
    },
    async (request) => {
      const actor = requireActor(request);
      const query = request.query;
      const filters = activeFilters(query);
      const roleIds = numbersOf(
        filters.get('role'),
        roles.map((role) => role.id),
        'role',
      );
      const statuses = numbersOf(filters.get('status'), [1, 2, 3], 'status');
      const organizationIds = filters.get('organization')?.map(String);
      if (organizationIds?.some((id) => !z.uuid().safeParse(id).success))
        throw ValidationError.field('filters', 'Unknown organization in the organization filter');
      const order = orderOf(query, USER_ORDER, 'u.created_at');

      if (!isSuperadmin(actor) && !actor.organizationId) return tableAnswer(query, 0, [], []);
      const { total, rows } = await usersPage(
        db,
        {
          organizationId: isSuperadmin(actor) ? null : actor.organizationId,
          roleIds,
          statuses,
          organizationIds: organizationIds ?? null,
        },
        pageOf(query, order),
      );
      const canEdit = hasAny(actor.permissions, USER_UPDATE);
      // Only a driver can be deleted (DELETE users/deleteDriver); its row says so to who may.
      const canDelete = hasAny(actor.permissions, USER_DELETE);
      const data = rows.map(
        (row): UserRow => ({
          id: row.id as string,
          name: row.name as string,
          email: row.email as string,
          username: row.username as string,
          phone: row.phone as string,
          roleId: Number(row.role_id),
          role: roles.find((role) => role.id === Number(row.role_id))?.name ?? 'Unknown',
          organizationId: row.organization_id as string | null,
          organization: row.organization_id
            ? {
                id: row.organization_id as string,
                name: row.organization_name as string,
                type: row.organization_type as OrganizationType,
              }
            : null,
          emailConfirmed: Boolean(row.email_confirmed),
          status: Number(row.status),
          statusName: statusName(Number(row.status)),
          createdAt: new Date(row.created_at).toISOString(),
          actions: [
            ...(canEdit ? [Action.Edit] : []),
            ...(row.id === actor.userId ? [] : statusActions(actor, Number(row.status))),
            ...(canDelete && Number(row.role_id) === Role.Driver ? [Action.Delete] : []),
          ],
        }),
      );
      const tableActions = [
        ...(canEdit ? [Action.Edit] : []),
        ...(hasAny(actor.permissions, USER_ACTIVATE) ? [Action.Activate] : []),
        ...(hasAny(actor.permissions, USER_BLOCK) ? [Action.Block] : []),
        ...(canDelete ? [Action.Delete] : []),
      ];
      return tableAnswer(query, total, data, actionList(...tableActions));
    },
  );

  /**
   * Organizations of one type with their first user (the earliest user of the organization, for its
   * contact) and documents. A row's `status` is the organization's own, which its Activate and Block
   * actions change (PUT organizations/{id}/status): blocking one user leaves its colleagues working.
   */
  const organizationsList = (type: OrganizationType, code: number) =>
    app.get(
      `/users/list/${type === 'Shipper' ? 'shippers' : 'carriers'}`,
      {
        schema: {
          tags: ['users'],
          summary: `${type} organizations with their first user`,
          querystring: TableQuery,
          ...organizationsTableContract,
        },
        onRequest: can(code),
      },
      async (request) => {
        const actor = requireActor(request);
        const query = request.query;
        const statuses = numbersOf(activeFilters(query).get('status'), [1, 2, 3], 'status');
        const order = orderOf(query, ORGANIZATION_ORDER, 'o.created_at');
        const { total, rows } = await organizationsPage(
          db,
          { type, statuses },
          pageOf(query, order),
        );
        const data = rows.map((row): OrganizationRow => {
          const status = Number(row.status);
          return {
            id: row.id as string,
            name: row.name as string,
            type: row.type as OrganizationType,
            email: row.email as string,
            phone: row.phone as string,
            address: row.address as string,
            person: row.person as string,
            organizationStatus: Number(row.status),
            organizationStatusName: statusName(Number(row.status)),
            user: row.user_id
              ? {
                  id: row.user_id as string,
                  name: row.user_name as string,
                  email: row.user_email as string,
                  username: row.user_username as string,
                  phone: row.user_phone as string,
                  status: Number(row.user_status),
                }
              : null,
            ...(type === 'Carrier'
              ? {
                  mcNumber: row.mc_number === null ? null : Number(row.mc_number),
                  dotNumber: row.dot_number === null ? null : Number(row.dot_number),
                  eldProvider: row.eld_provider as string | null,
                  documents: row.documents as Record<string, string | null>,
                }
              : {
                  insuredAmount: row.insured_amount === null ? null : Number(row.insured_amount),
                  signatureFileId: row.signature_file_id as string | null,
                }),
            createdAt: new Date(row.created_at).toISOString(),
            status,
            statusName: statusName(status),
            // Activate and Block act on the organization (PUT organizations/{id}/status).
            actions: statusActions(actor, status),
          };
        });
        return tableAnswer(
          query,
          total,
          data,
          actionList(Action.Activate, Action.Block).filter((action) =>
            hasAny(actor.permissions, action.id === Action.Activate ? USER_ACTIVATE : USER_BLOCK),
          ),
        );
      },
    );
  organizationsList('Shipper', USERS_SHIPPERS);
  organizationsList('Carrier', USERS_CARRIERS);
}
