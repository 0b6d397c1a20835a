import { DEFAULT_PAYMENT_TERMS_DAYS } from '../../domain/invoices/invoice.decide.ts';
import { roles, statusName } from '../../domain/catalog.ts';
import {
  ACCOUNT_CHANGE_CARRIER,
  ACCOUNT_CHANGE_ORGANIZATION,
  ACCOUNT_CHANGE_SHIPPER,
  ACCOUNT_EDIT_USER_PROFILE,
  ACCOUNT_GET_CARRIER,
  ACCOUNT_GET_ORGANIZATION,
  ACCOUNT_GET_SHIPPER,
  ACCOUNT_GET_USER,
  hasAny,
} from '../../domain/permissions.ts';
import { carrierProfileBodySchema, shipperProfileBodySchema } from '../../domain/schemas/index.ts';
import { assertFound, NotFoundError } from '../../domain/shared/errors.ts';
import { filesContract } from '../../domain/contracts/files.contract.ts';
import type { App } from '../http/routeContext.ts';
import { changeOrganizationContact } from '../commands/organizationContactChanges.ts';
import { changeCarrierProfile, changeShipperProfile } from '../commands/organizationProfiles.ts';
import { updateOwnAccount } from '../commands/userDetails.ts';
import { can, requireActor, requireCaller } from '../http/auth.ts';
import { parseWith } from '../http/parseWith.ts';
import {
  contentDisposition,
  optionalCarrierDocuments,
  readMultipart,
} from '../integrations/files/uploads.ts';
import { createFileStore } from '../integrations/files/files.ts';
import { mayReadFile, type FileParties } from '../integrations/files/fileAccess.ts';
import {
  accountContract,
  updateAccountContract,
  updateCarrierContract,
  updateOrganizationContract,
  updateShipperContract,
  type Account,
} from '../../domain/contracts/account.contract.ts';

const extensions: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'text/csv': 'csv',
};

/**
 * The signed-in user's own account: the Account Settings dialog (user, organization, shipper and
 * carrier sections), and downloads of the organization's stored documents.
 */
export async function accountRoutes(app: App) {
  const { platform } = app;
  const { identity, runner } = platform;
  const files = createFileStore(app.platform.database.db);
  const identityViews = ['users', 'organizations'];

  app.get(
    '/account',
    {
      schema: {
        tags: ['account'],
        summary: 'The Account Settings data: each section only where the caller may see it',
        ...accountContract,
      },
      // Open while the organization waits for its vetting (Pending): the user's own account.
      config: { whilePending: true },
      onRequest: can(
        ACCOUNT_GET_USER,
        ACCOUNT_GET_ORGANIZATION,
        ACCOUNT_GET_SHIPPER,
        ACCOUNT_GET_CARRIER,
      ),
    },
    async (request) => {
      const actor = requireActor(request);
      const user = assertFound(await identity.loadUser(actor.userId), 'User');
      const organization = user.organizationId
        ? await identity.loadOrganization(user.organizationId)
        : null;
      const answer: Account = {};
      if (hasAny(actor.permissions, ACCOUNT_GET_USER)) {
        // Never the password hash, codes or reset state: only what the form shows.
        answer.user = {
          id: user.userId,
          name: user.name,
          username: user.username,
          email: user.email,
          phone: user.phone,
          role: {
            id: user.roleId,
            name: roles.find((role) => role.id === user.roleId)?.name ?? 'Unknown',
          },
          organizationId: user.organizationId,
          status: user.status,
          statusName: statusName(user.status),
          emailConfirmed: user.emailConfirmed,
        };
      }
      if (organization && user.organizationId) {
        if (hasAny(actor.permissions, ACCOUNT_GET_ORGANIZATION)) {
          answer.organization = {
            id: user.organizationId,
            name: organization.name,
            type: organization.type,
            status: organization.status,
            statusName: statusName(organization.status),
            ...organization.contact,
            pendingContactChange: organization.pendingContactChange
              ? {
                  changeId: organization.pendingContactChange.changeId,
                  requestedAt: organization.pendingContactChange.requestedAt,
                  pendingUntil: organization.pendingContactChange.pendingUntil,
                  ...organization.pendingContactChange.contact,
                }
              : null,
            ...(organization.type === 'Shipper'
              ? {
                  defaultTerms: organization.defaultTerms ?? null,
                  paymentTermsDays: organization.paymentTermsDays ?? DEFAULT_PAYMENT_TERMS_DAYS,
                }
              : { factor: organization.factor ?? null }),
          };
        }
        if (
          organization.type === 'Shipper' &&
          organization.shipper &&
          hasAny(actor.permissions, ACCOUNT_GET_SHIPPER)
        ) {
          answer.shipper = { ...organization.shipper };
        }
        if (
          organization.type === 'Carrier' &&
          organization.carrier &&
          hasAny(actor.permissions, ACCOUNT_GET_CARRIER)
        ) {
          answer.carrier = {
            ...organization.carrier,
            documents: { ...organization.carrier.documents },
          };
          // The ELD catalogue with the organization's installations, as GET organization-services answers it.
          answer.services = await app.platform.eld.services.catalogue(user.organizationId);
        }
      }
      return answer;
    },
  );

  app.put(
    '/users',
    {
      schema: {
        tags: ['account'],
        summary: 'Edit the own profile; a new password or e-mail needs the current password',
        ...updateAccountContract,
      },
      // Open while the organization waits for its vetting (Pending): the user's own account.
      config: { whilePending: true },
      onRequest: can(ACCOUNT_EDIT_USER_PROFILE),
    },
    async (request) => {
      const { email, username, name, phone, oldPassword, newPassword } = request.body;
      const { position } = await updateOwnAccount(
        platform,
        requireCaller(request),
        { email, username, name, phone, oldPassword, newPassword },
        request.socket.remoteAddress ?? 'unknown',
        new Date().toISOString(),
      );
      await runner.waitFor(identityViews, position);
      return { message: 'Account successfully updated' };
    },
  );

  app.put(
    '/users/organization',
    {
      schema: {
        tags: ['account'],
        summary:
          'Edit the own organization: name and contact; a new contact e-mail or phone needs the password (and code) and applies after 24 hours (202)',
        ...updateOrganizationContract,
      },
      // Open while the organization waits for its vetting (Pending): the user's own account.
      config: { whilePending: true },
      onRequest: can(ACCOUNT_CHANGE_ORGANIZATION),
    },
    async (request, reply) => {
      const { position, pendingUntil } = await changeOrganizationContact(
        platform,
        requireCaller(request),
        request.body,
        request.socket.remoteAddress ?? 'unknown',
        new Date().toISOString(),
      );
      await runner.waitFor([...identityViews, 'organizationContactChanges'], position);
      if (pendingUntil) return reply.code(202).send({ pendingUntil });
      return { message: 'Organization successfully updated' };
    },
  );

  app.post(
    '/users/carrier',
    {
      schema: {
        tags: ['account'],
        summary: 'Edit the carrier profile (multipart: data + any of the four documents)',
        ...updateCarrierContract,
      },
      // Open while the organization waits for its vetting (Pending): the user's own account.
      config: { whilePending: true },
      onRequest: can(ACCOUNT_CHANGE_CARRIER),
    },
    async (request) => {
      const { position, documents } = await changeCarrierProfile(
        platform,
        requireCaller(request),
        async () => {
          const upload = await readMultipart(request, { files: optionalCarrierDocuments });
          return {
            profile: parseWith(carrierProfileBodySchema, upload.data),
            documents: upload.files,
          };
        },
        new Date().toISOString(),
      );
      await runner.waitFor(identityViews, position);
      return { message: 'Carrier profile successfully updated', documents };
    },
  );

  app.post(
    '/users/shipper',
    {
      schema: {
        tags: ['account'],
        summary: 'Edit the shipper profile (multipart: data + optional signature image)',
        ...updateShipperContract,
      },
      // Open while the organization waits for its vetting (Pending): the user's own account.
      config: { whilePending: true },
      onRequest: can(ACCOUNT_CHANGE_SHIPPER),
    },
    async (request) => {
      const { position, signatureFileId } = await changeShipperProfile(
        platform,
        requireCaller(request),
        async () => {
          // The signature's type is read from its bytes (jpeg or png), never from the name or header.
          const upload = await readMultipart(request, {
            files: { signature: { required: false, accept: 'image' } },
          });
          return {
            profile: parseWith(shipperProfileBodySchema, upload.data),
            signature: upload.files.signature,
          };
        },
        new Date().toISOString(),
      );
      await runner.waitFor(identityViews, position);
      return { message: 'Shipper profile successfully updated', signatureFileId };
    },
  );

  /** The parties of a file's load or tour, from the aggregates (the event log), not a read model that may lag. */
  const fileParties: FileParties = {
    load: async (loadId) => app.platform.marketplace.loadLoad(loadId),
    tour: async (tourId) => app.platform.marketplace.loadTour(tourId),
  };

  app.get(
    '/files/:id',
    {
      schema: {
        tags: ['account'],
        summary:
          "Download a stored document: by its owner (load, tour or organization) and the caller's role",
        ...filesContract.download,
      },
      // Open while the organization waits for its vetting (Pending): the user's own account.
      config: { whilePending: true },
      onRequest: can(),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const meta = await files.getMeta(request.params.id);
      // A file the caller may not read is as unknown as a missing one.
      if (!meta || !(await mayReadFile(actor, meta, fileParties)))
        throw new NotFoundError('File not found');
      const file = assertFound(await files.get(meta.id), 'File');
      return reply
        .header('content-type', file.mime)
        .header(
          'content-disposition',
          contentDisposition(`${file.kind}.${extensions[file.mime] ?? 'bin'}`),
        )
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(file.data);
    },
  );
}
