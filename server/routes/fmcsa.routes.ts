import { fmcsaContracts } from '../../domain/contracts/fmcsa.contract.ts';
import { SUPER_ADMIN } from '../../domain/permissions.ts';
import {
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../domain/shared/errors.ts';
import { can, isSuperadmin, requireActor } from '../http/auth.ts';
import type { App } from '../http/routeContext.ts';
import { AUTHORITY_FILE_MAX_BYTES } from '../integrations/fmcsa/authorityFile.ts';
import { translateMultipartError } from '../integrations/files/uploads.ts';

/**
 * Carrier authority (docs/api.md "Carrier authority"): the Superadmin imports FMCSA's carrier file,
 * the offline source of carriers' authority, and reads any carrier's recorded authority; a carrier
 * reads its own.
 */
export async function fmcsaRoutes(app: App) {
  const { platform } = app;

  app.post(
    '/admin/fmcsa/import',
    {
      schema: {
        tags: ['users'],
        summary:
          "Import FMCSA's carrier census or authority file (Superadmin): it replaces the previous import",
        ...fmcsaContracts.import,
      },
      onRequest: can(SUPER_ADMIN),
    },
    async (request, reply) => {
      if (!request.isMultipart())
        throw new UnsupportedMediaTypeError('The request must be multipart/form-data');
      let rows: number | null = null;
      try {
        for await (const part of request.parts({
          limits: { fileSize: AUTHORITY_FILE_MAX_BYTES, files: 1, fields: 0, parts: 1 },
        })) {
          if (part.type !== 'file' || part.fieldname !== 'file') {
            if (part.type === 'file') part.file.resume();
            throw ValidationError.field(part.fieldname, 'Send the FMCSA file in the field "file"');
          }
          const file = part.file;
          file.on('limit', () => file.destroy(new PayloadTooLargeError('File too large')));
          rows = await platform.authority.importFile(file, new Date().toISOString());
        }
      } catch (error) {
        throw translateMultipartError(error);
      }
      if (rows === null) throw ValidationError.field('file', 'A file is required');
      return reply.code(202).send({ rows });
    },
  );

  app.get(
    '/organizations/:id/authority',
    {
      schema: {
        tags: ['users'],
        summary:
          "A carrier's operating authority in FMCSA's records (Superadmin, the carrier itself)",
        ...fmcsaContracts.authority,
      },
      onRequest: can(),
    },
    async (request) => {
      const actor = requireActor(request);
      const { id } = request.params;
      if (!isSuperadmin(actor) && actor.organizationId !== id)
        throw new NotFoundError('Organization not found');
      const organization = await platform.identity.loadOrganization(id);
      if (organization?.type !== 'Carrier' || !organization.carrier)
        throw new NotFoundError('Organization not found');
      const authority =
        organization.authority ??
        (await platform.authority.check(
          organization.carrier.dotNumber,
          organization.carrier.mcNumber,
          new Date().toISOString(),
        ));
      const { dotNumber, mcNumber, status, insuranceOnFile, checkedAt, source } = authority;
      return { dotNumber, mcNumber, status, insuranceOnFile, checkedAt, source };
    },
  );
}
