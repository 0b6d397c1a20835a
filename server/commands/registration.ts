/**
 * Self-registration of carriers and shippers (an organization, Pending, with its first user) and the
 * confirmation of the sign-up code. No one is signed in: the events name the user and organization
 * they are for, and the request.
 *
 * The answer must not tell whether an address has an account: a registration with a registered
 * e-mail writes nothing, tells the owner by e-mail, and returns like a new one (fresh ids that name
 * nothing); a wrong code and an unknown address are refused alike.
 */
import { randomUUID } from 'node:crypto';
import { ConflictError, ValidationError } from '../../domain/shared/errors.ts';
import type { CarrierRegistration, ShipperRegistration } from '../../domain/schemas/index.ts';
import {
  EMAIL_ALREADY_REGISTERED,
  USERNAME_ALREADY_TAKEN,
} from '../../domain/uniqueKeys/uniqueKey.ts';
import { INVALID_CONFIRMATION_CODE } from '../../domain/users/user.decide.ts';
import { hashCode } from '../auth/codes.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { saveFiles } from '../integrations/files/saveFiles.ts';
import type { UploadedFile } from '../integrations/files/uploads.ts';
import { metadataFor } from './caller.ts';
import type { IdentityDeps } from './identityDeps.ts';
import { alreadyRegisteredNotice } from './identityNotices.ts';
import { createOrganizationWithUser } from './organizations.ts';

export type Registration =
  | { type: 'Carrier'; form: CarrierRegistration; documents: Record<string, UploadedFile> }
  | { type: 'Shipper'; form: ShipperRegistration; documents: Record<string, UploadedFile> };

export type Registered = {
  userId: string;
  organizationId: string;
  /** False when the e-mail already had an account: nothing was written, its owner was told. */
  registered: boolean;
  position: LogPosition | null;
};

/**
 * Registers a Pending organization with its first user, and e-mails the user a sign-up code. The
 * username is checked first, whatever the e-mail: its 409 must not depend on whether the e-mail has
 * an account.
 */
export async function registerOrganization(
  deps: Pick<IdentityDeps, 'identity' | 'mailer' | 'logger' | 'database'>,
  registration: Registration,
  requestId: string,
  now: string,
): Promise<Registered> {
  const { identity } = deps;
  const { type, form } = registration;
  if (await identity.userIdByUsername(form.username))
    throw new ConflictError(USERNAME_ALREADY_TAKEN, [
      { path: 'username', message: USERNAME_ALREADY_TAKEN },
    ]);
  const organizationId = randomUUID();
  const userId = randomUUID();
  // Saved before the events that point at them; removed again if the registration is refused.
  const saved = await saveFiles(deps.database.db, organizationId, registration.documents);
  try {
    const { position } = await createOrganizationWithUser(
      deps,
      {
        type,
        name: form.organization.name,
        contact: form.organization.organizationContactInfo,
        carrier:
          registration.type === 'Carrier'
            ? {
                mcNumber: registration.form.mcNumber,
                dotNumber: registration.form.dotNumber,
                eldProvider: null,
                trucks: registration.form.trucks,
                trailers: registration.form.trailers,
                driverTeams: registration.form.driverTeams,
                documents: saved.ids,
              }
            : null,
        shipper:
          registration.type === 'Shipper'
            ? {
                insuredAmount: registration.form.insuredAmount as 1 | 2,
                signatureFileId: null,
              }
            : null,
        status: 1,
      },
      {
        email: form.email,
        username: form.username,
        name: form.userDetails.name,
        phone: form.userDetails.phone,
        password: form.password,
        roleId: type === 'Carrier' ? 3 : 2,
      },
      null,
      now,
      { organizationId, userId, sendCode: true, requestId },
    );
    return { userId, organizationId, registered: true, position };
  } catch (error) {
    await saved.discard();
    if (!(error instanceof ConflictError && error.message === EMAIL_ALREADY_REGISTERED))
      throw error;
    // The address has an account: as much work as a registration (the password's hash), and its
    // owner is told by e-mail.
    await hashPassword(form.password);
    const ownerId = await identity.userIdByEmail(form.email);
    const owner = ownerId ? await identity.loadUser(ownerId) : null;
    if (owner) {
      await deps.mailer
        .send(alreadyRegisteredNotice(owner, now))
        .catch((err) =>
          deps.logger.error({ err, requestId }, 'already-registered notice could not be sent'),
        );
    }
    return { userId, organizationId, registered: false, position: null };
  }
}

/** Confirms the e-mail of a sign-up with its 6-digit code. */
export async function confirmSignup(
  deps: Pick<IdentityDeps, 'identity'>,
  input: { email: string; code: string },
  requestId: string,
  now: string,
) {
  const { identity } = deps;
  const userId = await identity.userIdByEmail(input.email);
  if (!userId) {
    // A known address reads its user's stream before the decider answers; an unknown one reads as
    // much, and answers as a wrong code does (the decider's 400 for a confirmed account too).
    await identity.loadUser(randomUUID());
    throw ValidationError.field('code', INVALID_CONFIRMATION_CODE);
  }
  const { position } = await identity.user(
    { type: 'ConfirmSignup', data: { userId, codeHash: hashCode(input.code), now } },
    null,
    now,
    metadataFor({ userId, organizationId: null }, requestId, now),
  );
  return { position };
}
