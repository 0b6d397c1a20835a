/**
 * Self-registration of carriers and shippers (an organization, Pending, with its first user), the
 * confirmation of the sign-up code and a new code on request. No one is signed in: the events name
 * the user and organization they are for, and the request.
 *
 * The answer must not tell whether an address has an account: a registration with a registered
 * e-mail writes nothing, tells the owner by e-mail, and returns like a new one (fresh ids that name
 * nothing); a wrong code and an unknown address are refused alike; a new code is asked for with the
 * same answer whatever the address. Only whoever began a registration still waiting for its code is
 * told so (409 'Registration already started, please enter the security code'): the same e-mail
 * with the same password, which only they know. A registration whose code expired unconfirmed no
 * longer holds its e-mail nor its username: a new registration with either takes its place.
 */
import { randomUUID } from 'node:crypto';
import { ConflictError, DomainError, ValidationError } from '../../domain/shared/errors.ts';
import type { CarrierRegistration, ShipperRegistration } from '../../domain/schemas/index.ts';
import {
  EMAIL_ALREADY_REGISTERED,
  normaliseEmail,
  USERNAME_ALREADY_TAKEN,
} from '../../domain/uniqueKeys/uniqueKey.ts';
import {
  hasLapsed,
  INVALID_CONFIRMATION_CODE,
  isWaitingForCode,
} from '../../domain/users/user.decide.ts';
import type { RegisteredUser } from '../../domain/users/user.ts';
import { hasOtherMembers } from '../../projections/users/users.queries.ts';
import { hashCode, newSixDigitCode } from '../auth/codes.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { saveFiles } from '../integrations/files/saveFiles.ts';
import type { UploadedFile } from '../integrations/files/uploads.ts';
import { metadataFor } from './caller.ts';
import type { IdentityDeps } from './identityDeps.ts';
import { alreadyRegisteredNotice, signupCodeMail } from './identityNotices.ts';
import { createOrganizationWithUser } from './organizations.ts';
import { SIGNUP_CODE_TTL_MS } from './users.ts';

export const REGISTRATION_PENDING = 'Registration already started, please enter the security code';

const registrationPending = () =>
  new ConflictError(REGISTRATION_PENDING, [{ path: 'email', message: REGISTRATION_PENDING }]);

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

type Deps = Pick<IdentityDeps, 'identity' | 'mailer' | 'logger' | 'database'>;

/**
 * Registers a Pending organization with its first user, and e-mails the user a sign-up code. The
 * username is checked first, whatever the e-mail: its 409 must not depend on whether the e-mail has
 * an account (only the one who began a waiting registration with that e-mail, username and
 * password is told it waits for its code). Either key held by a lapsed registration is freed first.
 */
export async function registerOrganization(
  deps: Deps,
  registration: Registration,
  requestId: string,
  now: string,
): Promise<Registered> {
  const { identity } = deps;
  const { type, form } = registration;
  const usernameHolder = await holderOf(
    deps,
    await identity.userIdByUsername(form.username),
    requestId,
    now,
  );
  if (usernameHolder) {
    // As much work whoever holds the username: its password checked against the one sent.
    const samePassword = await verifyPassword(usernameHolder.user?.passwordHash, form.password);
    const { user } = usernameHolder;
    if (
      samePassword &&
      user &&
      isWaitingForCode(user) &&
      normaliseEmail(user.email) === normaliseEmail(form.email)
    )
      throw registrationPending();
    throw new ConflictError(USERNAME_ALREADY_TAKEN, [
      { path: 'username', message: USERNAME_ALREADY_TAKEN },
    ]);
  }
  const emailHolder = await holderOf(
    deps,
    await identity.userIdByEmail(form.email),
    requestId,
    now,
  );
  if (emailHolder) {
    const samePassword = await verifyPassword(emailHolder.user?.passwordHash, form.password);
    if (samePassword && emailHolder.user && isWaitingForCode(emailHolder.user))
      throw registrationPending();
  }
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

/**
 * The user holding a key (`userId` read from it), or null when the key is free. A registration there
 * whose code expired unconfirmed lapses first, and the key is free.
 */
async function holderOf(
  deps: Deps,
  userId: string | null,
  requestId: string,
  now: string,
): Promise<{ user: RegisteredUser | null } | null> {
  if (!userId) return null;
  const user = await deps.identity.loadUser(userId);
  if (user && hasLapsed(user, now)) {
    await lapseRegistration(deps, user, requestId, now);
    return null;
  }
  return { user };
}

/**
 * Ends a registration whose code expired unconfirmed: the user lapses, its e-mail and username are
 * released, and its organization lapses too unless someone else belongs to it.
 */
async function lapseRegistration(deps: Deps, user: RegisteredUser, requestId: string, now: string) {
  const { identity } = deps;
  const metadata = metadataFor(
    { userId: user.userId, organizationId: user.organizationId },
    requestId,
    now,
  );
  try {
    await identity.user(
      { type: 'LapseSignup', data: { userId: user.userId, now } },
      null,
      now,
      metadata,
    );
  } catch (error) {
    // Another registration lapsed it a moment ago: its keys are being freed there.
    if (error instanceof DomainError && (error.statusCode === 404 || error.statusCode === 409))
      return;
    throw error;
  }
  await identity.release('email', user.email, user.userId, null, now, metadata);
  await identity.release('username', user.username, user.userId, null, now, metadata);
  const { organizationId } = user;
  if (organizationId && !(await hasOtherMembers(deps.database.db, organizationId, user.userId))) {
    await identity
      .organization(
        { type: 'LapseOrganizationRegistration', data: { organizationId, now } },
        null,
        now,
        metadata,
      )
      .catch((error) => {
        // Activated or blocked meanwhile: the organization stays.
        if (!(error instanceof DomainError)) throw error;
      });
  }
}

/**
 * E-mails a new sign-up code to a registration still waiting for one (its code expired or not),
 * and records it; the earlier code stops working. `known` says whether there was one (for the
 * answer's timing; the answer itself is the same).
 */
export async function resendSignupCode(
  deps: Pick<IdentityDeps, 'identity' | 'mailer' | 'logger'>,
  email: string,
  requestId: string,
  now: string,
): Promise<{ known: boolean; position: LogPosition | null }> {
  const { identity } = deps;
  const userId = await identity.userIdByEmail(email);
  const user = userId ? await identity.loadUser(userId) : null;
  if (!user || !isWaitingForCode(user)) return { known: false, position: null };
  const code = newSixDigitCode();
  const { position } = await identity.user(
    {
      type: 'ResendSignupCode',
      data: {
        userId: user.userId,
        confirmation: {
          codeHash: hashCode(code),
          expiresAt: new Date(Date.parse(now) + SIGNUP_CODE_TTL_MS).toISOString(),
        },
        now,
      },
    },
    null,
    now,
    metadataFor({ userId: user.userId, organizationId: user.organizationId }, requestId, now),
  );
  await deps.mailer
    .send(signupCodeMail(user, code))
    .catch((err) => deps.logger.error({ err, requestId }, 'sign-up code could not be e-mailed'));
  return { known: true, position };
}
