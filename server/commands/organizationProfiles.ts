/**
 * An organization's own edits of its profile from Account Settings: the carrier profile with its
 * documents, the shipper profile with its signature (the name and contact are
 * organizationContactChanges.ts). Always the caller's own
 * organization; a Superadmin has none (404).
 */
import type { CarrierProfileBody, ShipperProfileBody } from '../../domain/schemas/index.ts';
import { assertFound, NotFoundError } from '../../domain/shared/errors.ts';
import { saveFiles } from '../integrations/files/saveFiles.ts';
import type { UploadedFile } from '../integrations/files/uploads.ts';
import type { Caller } from './caller.ts';
import type { IdentityDeps } from './identityDeps.ts';

type Deps = Pick<IdentityDeps, 'identity' | 'database'>;

/** The caller's own organization; a Superadmin has none (404). */
async function ownOrganization(deps: Deps, caller: Caller) {
  const { organizationId } = caller.actor;
  if (!organizationId) throw new NotFoundError('Organization not found');
  return assertFound(await deps.identity.loadOrganization(organizationId), 'Organization');
}

/**
 * The carrier profile; the documents sent replace the stored ones of their kind. `form` reads the
 * request's form, once the caller is known to have an organization.
 */
export async function changeCarrierProfile<K extends string>(
  deps: Deps,
  caller: Caller,
  form: () => Promise<{ profile: CarrierProfileBody; documents: Partial<Record<K, UploadedFile>> }>,
  now: string,
) {
  const { organizationId } = await ownOrganization(deps, caller);
  const { profile, documents } = await form();
  const saved = await saveFiles(deps.database.db, organizationId, documents);
  try {
    const { position } = await deps.identity.organization(
      {
        type: 'ChangeCarrierProfile',
        data: {
          organizationId,
          mcNumber: profile.mcNumber,
          dotNumber: profile.dotNumber,
          eldProvider: profile.eldProvider,
          trucks: profile.trucks,
          trailers: profile.trailers,
          driverTeams: profile.driverTeams,
          documents: saved.ids,
          now,
        },
      },
      caller,
      now,
    );
    return { position, documents: saved.ids };
  } catch (error) {
    await saved.discard();
    throw error;
  }
}

/** The shipper profile; a signature sent replaces the stored one. `form` as for the carrier's. */
export async function changeShipperProfile(
  deps: Deps,
  caller: Caller,
  form: () => Promise<{ profile: ShipperProfileBody; signature: UploadedFile | undefined }>,
  now: string,
) {
  const { organizationId } = await ownOrganization(deps, caller);
  const { profile, signature } = await form();
  const saved = await saveFiles(deps.database.db, organizationId, { signature });
  try {
    const { position } = await deps.identity.organization(
      {
        type: 'ChangeShipperProfile',
        data: {
          organizationId,
          insuredAmount: profile.insuredAmount as 1 | 2,
          ...(saved.ids.signature ? { signatureFileId: saved.ids.signature } : {}),
          now,
        },
      },
      caller,
      now,
    );
    return { position, signatureFileId: saved.ids.signature ?? null };
  } catch (error) {
    await saved.discard();
    throw error;
  }
}
