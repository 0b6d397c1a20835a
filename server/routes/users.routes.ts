import { z } from 'zod';
import { Role, roles, statusName, type OrganizationType } from '../../domain/catalog.ts';
import {
  DISPLAY_USERS_SIDEMENU,
  SUPER_ADMIN,
  USER_ACTIVATE,
  USER_ASSIGN_ORGANIZATION,
  USER_BLOCK,
  USER_CREATABLE_ROLES,
  USER_CREATE,
  USER_DELETE,
  USER_FILTERABLE_ROLES,
  USER_UPDATE,
  USERS_CARRIERS,
  USERS_SHIPPERS,
  canCreateRole,
  creatableRoles,
  filterableRoles,
  hasAny,
} from '../../domain/permissions.ts';
import {
  createOrganizationDataSchema,
  FILE_REQUIRED_MESSAGE,
  ORGANIZATION_ID_MESSAGE,
} from '../../domain/schemas/index.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/shared/errors.ts';
import { hasActiveTour } from '../../projections/marketplace/marketplace.queries.ts';
import {
  ORGANIZATION_ORDER,
  organizationChoices,
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
  changePassword,
  credentialsChanged,
  emailChanges,
  optionalCarrierDocuments,
  parseWith,
  requireCurrentPassword,
  saveFiles,
  updateUserDetails,
} from '../identity/accounts.ts';
import { assertFound, causeOf, latest, newId } from '../identity/identity.ts';
import { createOrganizationWithUser, createUser } from '../identity/onboarding.ts';
import { readMultipart } from '../integrations/files/uploads.ts';
import {
  activateUserContract,
  blockUserContract,
  createOrganizationContract,
  createUserContract,
  deleteDriverContract,
  organizationChoicesContract,
  organizationsTableContract,
  roleChoicesContract,
  updateUserContract,
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
 * User administration: activation and blocking (Superadmin), the users table, the shippers and
 * carriers lists, creating and editing users and organizations, and the role pick lists.
 */
export async function usersRoutes(app: App) {
  const { identity, runner } = app.platform;
  const { db } = app.platform.database;
  const identityViews = ['users', 'organizations'];

  /** A user the caller may see: a Superadmin any, others only their organization's (else 404). */
  async function visibleUser(actor: Actor, userId: string) {
    const user = assertFound(await identity.loadUser(userId), 'User');
    if (
      !isSuperadmin(actor) &&
      (!actor.organizationId || user.organizationId !== actor.organizationId)
    )
      throw new NotFoundError('User not found');
    return user;
  }

  app.get(
    '/users/activate/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'Activate a user (and its Pending organization)',
        ...activateUserContract,
      },
      onRequest: can(USER_ACTIVATE),
    },
    async (request) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const cause = causeOf(actor, request.id);
      const user = await visibleUser(actor, request.params.id);
      const { position } = await identity.user(
        { type: 'ActivateUser', data: { userId: user.userId, now } },
        cause,
        now,
      );
      let organizationPosition = null;
      if (user.organizationId) {
        const organization = await identity.loadOrganization(user.organizationId);
        if (organization?.status === 1) {
          ({ position: organizationPosition } = await identity.organization(
            { type: 'ActivateOrganization', data: { organizationId: user.organizationId, now } },
            cause,
            now,
          ));
          app.platform.organizationStatus.forget(user.organizationId);
        }
      }
      await runner.waitFor(identityViews, latest(position, organizationPosition));
      return { id: user.userId, status: 2, statusName: statusName(2), message: 'User activated' };
    },
  );

  app.get(
    '/users/block/:id',
    {
      schema: { tags: ['users'], summary: 'Block a user; its sessions end', ...blockUserContract },
      onRequest: can(USER_BLOCK),
    },
    async (request) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const user = await visibleUser(actor, request.params.id);
      if (user.userId === actor.userId)
        throw ValidationError.field('id', 'You cannot block yourself');
      const { position } = await identity.user(
        { type: 'BlockUser', data: { userId: user.userId, now } },
        causeOf(actor, request.id),
        now,
      );
      await app.platform.tokens.revokeAllForUser(user.userId);
      await runner.waitFor(identityViews, position);
      return { id: user.userId, status: 3, statusName: statusName(3), message: 'User blocked' };
    },
  );

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

  app.post(
    '/users',
    {
      schema: { tags: ['users'], summary: 'Create a user (Active at once)', ...createUserContract },
      onRequest: can(USER_CREATE),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const body = request.body;
      if (!canCreateRole(actor.roleId, body.roleId)) {
        const message = `You cannot create a user with the role ${roles.find((role) => role.id === body.roleId)?.name ?? body.roleId}`;
        throw new ForbiddenError(message, [{ path: 'roleId', message }]);
      }
      let organizationId: string | null;
      if (body.roleId === Role.Superadmin) {
        organizationId = null;
      } else if (isSuperadmin(actor)) {
        if (!body.organizationId)
          throw ValidationError.field('organizationId', ORGANIZATION_ID_MESSAGE);
        const organization = await identity.loadOrganization(body.organizationId);
        const expected: OrganizationType = body.roleId === Role.Shipper ? 'Shipper' : 'Carrier';
        if (!organization) throw ValidationError.field('organizationId', ORGANIZATION_ID_MESSAGE);
        if (organization.type !== expected)
          throw ValidationError.field(
            'organizationId',
            `A ${roles.find((role) => role.id === body.roleId)!.name} belongs to a ${expected} organization`,
          );
        organizationId = body.organizationId;
      } else {
        if (!actor.organizationId) throw new ForbiddenError('You belong to no organization');
        // Only in one's own organization: another organization's id is as unknown as a made-up one.
        if (body.organizationId && body.organizationId !== actor.organizationId)
          throw new NotFoundError('Organization not found');
        organizationId = actor.organizationId;
      }
      const now = new Date().toISOString();
      const { userId, position } = await createUser(
        app.platform,
        {
          email: body.email,
          username: body.username,
          name: body.userDetails.name,
          phone: body.userDetails.phone,
          roleId: body.roleId,
          organizationId,
          password: body.password,
          status: 2,
        },
        causeOf(actor, request.id),
        now,
      );
      await runner.waitFor(identityViews, position);
      return reply.code(201).send({ id: userId, message: 'User successfully created' });
    },
  );

  app.put(
    '/users/:id',
    {
      schema: {
        tags: ['users'],
        summary:
          'Edit a user: e-mail, name, phone, and optionally a new password (on oneself, a new password or e-mail needs the current one)',
        ...updateUserContract,
      },
      onRequest: can(USER_UPDATE),
    },
    async (request) => {
      const actor = requireActor(request);
      const user = await visibleUser(actor, request.params.id);
      const { email, name, phone, newPassword, oldPassword } = request.body;
      // One's own password or e-mail needs the current password (a stolen access token alone must not
      // take the account over); an administrator setting another user's does not.
      const self = user.userId === actor.userId;
      const newEmail = emailChanges(user, email) ? email : null;
      if (self && (newPassword || newEmail))
        await requireCurrentPassword(
          app.platform,
          user,
          oldPassword,
          request.socket.remoteAddress ?? 'unknown',
        );
      const now = new Date().toISOString();
      const cause = causeOf(actor, request.id);
      const detailsPosition = await updateUserDetails(
        app.platform,
        user,
        { email, username: user.username, name, phone },
        cause,
        now,
      );
      const passwordPosition = newPassword
        ? await changePassword(app.platform, user.userId, newPassword, cause, now)
        : null;
      // The user's other sessions end (all of them when an administrator made the change) and the old address is told.
      await credentialsChanged(app.platform, {
        user,
        keepSessionId: self ? actor.sessionId : null,
        newEmail,
        passwordChanged: Boolean(newPassword),
        now,
      });
      await runner.waitFor(identityViews, latest(detailsPosition, passwordPosition));
      return { id: user.userId, message: 'User successfully updated' };
    },
  );

  app.delete(
    '/users/deleteDriver',
    {
      schema: {
        tags: ['users'],
        summary: "Delete a driver of the caller's organization",
        ...deleteDriverContract,
      },
      onRequest: can(USER_DELETE),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const user = await visibleUser(actor, request.body.id);
      const now = new Date().toISOString();
      const cause = causeOf(actor, request.id);
      // A driver assigned to a tour that is not finished yet cannot go: the decider refuses (409).
      const hasOpenTour = await hasActiveTour(db, user.userId);
      const { position } = await identity.user(
        { type: 'DeleteUser', data: { userId: user.userId, hasOpenTour, now } },
        cause,
        now,
      );
      await app.platform.tokens.revokeAllForUser(user.userId);
      // The e-mail and username become free for a new account.
      await identity.release('email', user.email, user.userId, cause, now);
      await identity.release('username', user.username, user.userId, cause, now);
      await runner.waitFor(identityViews, position);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/users/organization',
    {
      schema: {
        tags: ['users'],
        summary: 'Create an Active organization (multipart: data + carrier documents)',
        ...createOrganizationContract,
      },
      onRequest: can(SUPER_ADMIN),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const upload = await readMultipart(request, {
        files: optionalCarrierDocuments,
      });
      const data = parseWith(createOrganizationDataSchema, upload.data);
      if (data.type === 'Carrier') {
        for (const name of ['mcAuthority', 'certificateOfInsurance', 'w9Form'] as const) {
          if (!upload.files[name]) throw ValidationError.field(name, FILE_REQUIRED_MESSAGE);
        }
      } else {
        const unexpected = Object.keys(upload.files)[0];
        if (unexpected)
          throw ValidationError.field(unexpected, 'A shipper organization has no documents');
      }
      const organizationId = newId();
      const now = new Date().toISOString();
      const contact = data.organizationContactInfo;
      const saved = await saveFiles(app.platform, organizationId, upload.files);
      try {
        const { position } = await createOrganizationWithUser(
          app.platform,
          {
            type: data.type,
            name: data.name,
            contact: {
              address: contact.address,
              person: contact.person,
              email: contact.email,
              phone: contact.phone,
            },
            carrier:
              data.type === 'Carrier'
                ? {
                    mcNumber: data.mcNumber,
                    dotNumber: data.dotNumber,
                    eldProvider: data.eldProvider,
                    trucks: data.trucks,
                    trailers: data.trailers,
                    driverTeams: data.driverTeams,
                    documents: saved.ids,
                  }
                : null,
            shipper:
              data.type === 'Shipper'
                ? { insuredAmount: data.insuredAmount as 1 | 2, signatureFileId: null }
                : null,
            status: 2,
          },
          null,
          causeOf(actor, request.id),
          now,
          { organizationId },
        );
        await runner.waitFor(identityViews, position);
      } catch (error) {
        await saved.discard();
        throw error;
      }
      return reply
        .code(201)
        .send({ id: organizationId, message: 'Organization successfully created' });
    },
  );

  app.get(
    '/users/organization',
    {
      schema: {
        tags: ['users'],
        summary: 'Organizations the caller may assign users to',
        ...organizationChoicesContract,
      },
      onRequest: can(USER_ASSIGN_ORGANIZATION),
    },
    async (request) => {
      const actor = requireActor(request);
      if (!isSuperadmin(actor) && !actor.organizationId) return [];
      const rows = await organizationChoices(db, isSuperadmin(actor) ? null : actor.organizationId);
      return rows.map((row) => ({
        id: row.id as string,
        name: row.name as string,
        type: row.type as OrganizationType,
      }));
    },
  );

  app.get(
    '/users/roles/creatable',
    {
      schema: {
        tags: ['users'],
        summary: 'Roles the caller may give a new user',
        ...roleChoicesContract,
      },
      onRequest: can(USER_CREATABLE_ROLES),
    },
    async (request) =>
      creatableRoles(requireActor(request).roleId).map(({ id, name }) => ({ id, name })),
  );

  app.get(
    '/users/roles/filterable',
    {
      schema: {
        tags: ['users'],
        summary: "Roles offered by the users table's role filter",
        ...roleChoicesContract,
      },
      onRequest: can(USER_FILTERABLE_ROLES),
    },
    async (request) =>
      filterableRoles(requireActor(request).roleId).map(({ id, name }) => ({ id, name })),
  );
}
