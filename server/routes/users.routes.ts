import { statusName, type OrganizationType } from '../../domain/catalog.ts';
import {
  SUPER_ADMIN,
  USER_ACTIVATE,
  USER_ASSIGN_ORGANIZATION,
  USER_BLOCK,
  USER_CREATABLE_ROLES,
  USER_CREATE,
  USER_DELETE,
  USER_FILTERABLE_ROLES,
  USER_UPDATE,
  creatableRoles,
  filterableRoles,
} from '../../domain/permissions.ts';
import { createOrganizationDataSchema } from '../../domain/schemas/index.ts';
import { organizationChoices } from '../../projections/organizations/organizations.queries.ts';
import { createOrganization } from '../commands/organizations.ts';
import { editUser } from '../commands/userDetails.ts';
import { activateUser, addUser, blockUser, deleteDriver } from '../commands/users.ts';
import type { App } from '../http/routeContext.ts';
import { can, isSuperadmin, requireActor, requireCaller } from '../http/auth.ts';
import { parseWith } from '../http/parseWith.ts';
import { optionalCarrierDocuments, readMultipart } from '../integrations/files/uploads.ts';
import {
  activateUserContract,
  blockUserContract,
  createOrganizationContract,
  createUserContract,
  deleteDriverContract,
  organizationChoicesContract,
  roleChoicesContract,
  updateUserContract,
} from '../../domain/contracts/users.contract.ts';

/**
 * User administration: activation and blocking (Superadmin), creating and editing users and
 * organizations, and the pick lists of organizations and roles. The tables are in
 * `userLists.routes.ts`; the rules are the commands' (`server/commands/users.ts`,
 * `organizations.ts`, `userDetails.ts`).
 */
export async function usersRoutes(app: App) {
  const { platform } = app;
  const { runner } = platform;
  const { db } = platform.database;
  const identityViews = ['users', 'organizations'];
  const now = () => new Date().toISOString();

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
      const { userId, position } = await activateUser(
        platform,
        requireCaller(request),
        request.params.id,
        now(),
      );
      await runner.waitFor(identityViews, position);
      return { id: userId, status: 2, statusName: statusName(2), message: 'User activated' };
    },
  );

  app.get(
    '/users/block/:id',
    {
      schema: { tags: ['users'], summary: 'Block a user; its sessions end', ...blockUserContract },
      onRequest: can(USER_BLOCK),
    },
    async (request) => {
      const { userId, position } = await blockUser(
        platform,
        requireCaller(request),
        request.params.id,
        now(),
      );
      await runner.waitFor(identityViews, position);
      return { id: userId, status: 3, statusName: statusName(3), message: 'User blocked' };
    },
  );

  app.post(
    '/users',
    {
      schema: { tags: ['users'], summary: 'Create a user (Active at once)', ...createUserContract },
      onRequest: can(USER_CREATE),
    },
    async (request, reply) => {
      const { email, username, userDetails, roleId, organizationId, password } = request.body;
      const { userId, position } = await addUser(
        platform,
        requireCaller(request),
        {
          email,
          username,
          name: userDetails.name,
          phone: userDetails.phone,
          roleId,
          organizationId,
          password,
        },
        now(),
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
      const { email, name, phone, newPassword, oldPassword } = request.body;
      const { userId, position } = await editUser(
        platform,
        requireCaller(request),
        request.params.id,
        { email, name, phone, newPassword, oldPassword },
        request.socket.remoteAddress ?? 'unknown',
        now(),
      );
      await runner.waitFor(identityViews, position);
      return { id: userId, message: 'User successfully updated' };
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
      const { position } = await deleteDriver(
        platform,
        requireCaller(request),
        request.body.id,
        now(),
      );
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
      const caller = requireCaller(request);
      const upload = await readMultipart(request, { files: optionalCarrierDocuments });
      const data = parseWith(createOrganizationDataSchema, upload.data);
      const { organizationId, position } = await createOrganization(
        platform,
        caller,
        data,
        upload.files,
        now(),
      );
      await runner.waitFor(identityViews, position);
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
