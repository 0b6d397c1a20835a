/**
 * The use cases of user administration: creating a user (by an administrator, at bootstrap, or with
 * a new organization), activating, blocking and deleting one. Profile and password changes are in
 * `userDetails.ts`, self-registration in `registration.ts`.
 */
import { randomUUID } from 'node:crypto';
import { Role, roles, type OrganizationType, type RoleId } from '../../domain/catalog.ts';
import { canCreateRole } from '../../domain/permissions.ts';
import { ORGANIZATION_ID_MESSAGE } from '../../domain/schemas/index.ts';
import type { EventMetadata } from '../../domain/shared/event.ts';
import {
  assertFound,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '../../domain/shared/errors.ts';
import { hasActiveTour } from '../../projections/marketplace/marketplace.queries.ts';
import { hashCode, newSixDigitCode } from '../auth/codes.ts';
import { hashPassword } from '../auth/passwords.ts';
import { latest, type LogPosition } from '../eventstore/eventStore.ts';
import { isSuperadmin, metadataOf, type Caller } from './caller.ts';
import type { IdentityDeps } from './identityDeps.ts';
import { signupCodeMail } from './identityNotices.ts';

export const SIGNUP_CODE_TTL_MS = 30 * 60 * 1000;

export type NewUser = {
  email: string;
  username: string;
  name: string;
  phone: string;
  roleId: RoleId;
  organizationId: string | null;
  password: string;
  status: 1 | 2;
};

/**
 * Creates a user: reserves e-mail and username (409 when taken), then appends UserRegistered.
 * With `sendCode`, a 6-digit sign-up code is e-mailed and only its hash is kept. `metadata` names
 * who the events are for when no one signed in creates the user (a sign-up).
 */
export async function createUser(
  deps: Pick<IdentityDeps, 'identity' | 'mailer' | 'logger'>,
  input: NewUser,
  caller: Caller | null,
  now: string,
  options: {
    userId?: string;
    sendCode?: boolean;
    keysReserved?: boolean;
    metadata?: EventMetadata;
  } = {},
) {
  const userId = options.userId ?? randomUUID();
  const { identity } = deps;
  const metadata = options.metadata ?? metadataOf(caller, now);
  if (!options.keysReserved)
    await identity.reserveIdentity(input.email, input.username, userId, caller, now, metadata);
  const code = options.sendCode ? newSixDigitCode() : null;
  let position: LogPosition | null;
  try {
    const passwordHash = await hashPassword(input.password);
    ({ position } = await identity.user(
      {
        type: 'RegisterUser',
        data: {
          userId,
          email: input.email.trim(),
          username: input.username.trim(),
          name: input.name.trim(),
          phone: input.phone.trim(),
          roleId: input.roleId,
          organizationId: input.organizationId,
          passwordHash,
          status: input.status,
          confirmation: code
            ? {
                codeHash: hashCode(code),
                expiresAt: new Date(Date.parse(now) + SIGNUP_CODE_TTL_MS).toISOString(),
              }
            : null,
          now,
        },
      },
      caller,
      now,
      metadata,
    ));
  } catch (error) {
    await identity.release('email', input.email, userId, caller, now, metadata);
    await identity.release('username', input.username, userId, caller, now, metadata);
    throw error;
  }
  if (code) {
    await deps.mailer
      .send(signupCodeMail(input, code))
      .catch((err) => deps.logger.error({ err, userId }, 'sign-up code could not be e-mailed'));
  }
  return { userId, position };
}

/** A user the caller may see: a Superadmin any, others only their organization's (else 404). */
export async function visibleUser(
  deps: Pick<IdentityDeps, 'identity'>,
  caller: Caller,
  userId: string,
) {
  const { actor } = caller;
  const user = assertFound(await deps.identity.loadUser(userId), 'User');
  if (
    !isSuperadmin(actor) &&
    (!actor.organizationId || user.organizationId !== actor.organizationId)
  )
    throw new NotFoundError('User not found');
  return user;
}

const roleNamed = (roleId: number) => roles.find((role) => role.id === roleId)?.name;

/**
 * A user an administrator creates, Active at once: with a role the caller may give; a Superadmin
 * names the organization (of the type the role belongs to), anyone else creates in their own.
 */
export async function addUser(
  deps: Pick<IdentityDeps, 'identity' | 'mailer' | 'logger'>,
  caller: Caller,
  input: Omit<NewUser, 'organizationId' | 'status'> & { organizationId?: string | null },
  now: string,
) {
  const { actor } = caller;
  if (!canCreateRole(actor.roleId, input.roleId)) {
    const message = `You cannot create a user with the role ${roleNamed(input.roleId) ?? input.roleId}`;
    throw new ForbiddenError(message, [{ path: 'roleId', message }]);
  }
  let organizationId: string | null;
  if (input.roleId === Role.Superadmin) {
    organizationId = null;
  } else if (isSuperadmin(actor)) {
    if (!input.organizationId)
      throw ValidationError.field('organizationId', ORGANIZATION_ID_MESSAGE);
    const organization = await deps.identity.loadOrganization(input.organizationId);
    const expected: OrganizationType = input.roleId === Role.Shipper ? 'Shipper' : 'Carrier';
    if (!organization) throw ValidationError.field('organizationId', ORGANIZATION_ID_MESSAGE);
    if (organization.type !== expected)
      throw ValidationError.field(
        'organizationId',
        `A ${roleNamed(input.roleId)!} belongs to a ${expected} organization`,
      );
    organizationId = input.organizationId;
  } else {
    if (!actor.organizationId) throw new ForbiddenError('You belong to no organization');
    // Only in one's own organization: another organization's id is as unknown as a made-up one.
    if (input.organizationId && input.organizationId !== actor.organizationId)
      throw new NotFoundError('Organization not found');
    organizationId = actor.organizationId;
  }
  return createUser(deps, { ...input, organizationId, status: 2 }, caller, now);
}

/** Activates a user, and its organization when that still waits for its vetting (Pending). */
export async function activateUser(
  deps: Pick<IdentityDeps, 'identity' | 'organizationStatus'>,
  caller: Caller,
  userId: string,
  now: string,
) {
  const { identity } = deps;
  const user = await visibleUser(deps, caller, userId);
  const { position } = await identity.user(
    { type: 'ActivateUser', data: { userId: user.userId, now } },
    caller,
    now,
  );
  let organizationPosition: LogPosition | null = null;
  if (user.organizationId) {
    const organization = await identity.loadOrganization(user.organizationId);
    if (organization?.status === 1) {
      ({ position: organizationPosition } = await identity.organization(
        { type: 'ActivateOrganization', data: { organizationId: user.organizationId, now } },
        caller,
        now,
      ));
      deps.organizationStatus.forget(user.organizationId);
    }
  }
  return { userId: user.userId, position: latest(position, organizationPosition) };
}

/** Blocks another user: its sessions end at once. */
export async function blockUser(
  deps: Pick<IdentityDeps, 'identity' | 'tokens'>,
  caller: Caller,
  userId: string,
  now: string,
) {
  const user = await visibleUser(deps, caller, userId);
  if (user.userId === caller.actor.userId)
    throw ValidationError.field('id', 'You cannot block yourself');
  const { position } = await deps.identity.user(
    { type: 'BlockUser', data: { userId: user.userId, now } },
    caller,
    now,
  );
  await deps.tokens.revokeAllForUser(user.userId);
  return { userId: user.userId, position };
}

/**
 * Deletes a driver: not while it is assigned to a tour that is not finished (the decider's 409).
 * Its sessions end, and its e-mail and username become free for a new account.
 */
export async function deleteDriver(
  deps: Pick<IdentityDeps, 'identity' | 'tokens' | 'database'>,
  caller: Caller,
  userId: string,
  now: string,
) {
  const { identity } = deps;
  const user = await visibleUser(deps, caller, userId);
  const hasOpenTour = await hasActiveTour(deps.database.db, user.userId);
  const { position } = await identity.user(
    { type: 'DeleteUser', data: { userId: user.userId, hasOpenTour, now } },
    caller,
    now,
  );
  await deps.tokens.revokeAllForUser(user.userId);
  await identity.release('email', user.email, user.userId, caller, now);
  await identity.release('username', user.username, user.userId, caller, now);
  return { position };
}
