import type { RoleId } from '../../domain/catalog.ts';
import type { CarrierProfileInput } from '../../domain/organizations/organization.decide.ts';
import type {
  OrganizationContact,
  OrganizationType,
  ShipperProfile,
} from '../../domain/organizations/organization.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import type { Platform } from '../platform.ts';
import { hashCode, latest, newId, newSixDigitCode, type Cause } from './identity.ts';

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
export type NewOrganization = {
  type: OrganizationType;
  name: string;
  contact: OrganizationContact;
  carrier: CarrierProfileInput | null;
  shipper: ShipperProfile | null;
  status: 1 | 2;
};

/**
 * Creates a user: reserves e-mail and username (409 when taken), then appends UserRegistered.
 * With `sendCode`, a 6-digit sign-up code is e-mailed and only its hash is kept.
 */
export async function createUser(
  platform: Platform,
  input: NewUser,
  cause: Cause,
  now: string,
  options: { userId?: string; sendCode?: boolean; keysReserved?: boolean } = {},
) {
  const userId = options.userId ?? newId();
  const { identity } = platform;
  if (!options.keysReserved)
    await identity.reserveIdentity(input.email, input.username, userId, cause, now);
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
      cause,
      now,
    ));
  } catch (error) {
    await identity.release('email', input.email, userId, cause, now);
    await identity.release('username', input.username, userId, cause, now);
    throw error;
  }
  if (code) {
    await platform.mailer
      .send({
        to: input.email,
        subject: 'Your Freight Marketplace sign-up code',
        text: `Hello ${input.name},\n\nYour sign-up code is ${code}. It is valid for 30 minutes.\n\nEnter it on the confirmation page to finish your registration.`,
      })
      .catch((err) => platform.logger.error({ err, userId }, 'sign-up code could not be e-mailed'));
  }
  return { userId, position };
}

/** Registers an organization and its first user together; the user's keys are reserved first. */
export async function createOrganizationWithUser(
  platform: Platform,
  organization: NewOrganization,
  user: Omit<NewUser, 'organizationId' | 'status'> | null,
  cause: Cause,
  now: string,
  options: { organizationId?: string; userId?: string; sendCode?: boolean } = {},
) {
  const organizationId = options.organizationId ?? newId();
  const userId = options.userId ?? newId();
  const organizationCause = {
    ...cause,
    userId: cause.userId ?? userId,
    organizationId: cause.organizationId ?? organizationId,
  };
  // Keys first (the usual refusal), then the organization, then its user: nothing is half-written.
  if (user)
    await platform.identity.reserveIdentity(
      user.email,
      user.username,
      userId,
      organizationCause,
      now,
    );
  let position: LogPosition | null;
  try {
    ({ position } = await platform.identity.organization(
      {
        type: 'RegisterOrganization',
        data: {
          organizationId,
          ...organization,
          registeredBy: cause.userId ?? (user ? userId : null),
          now,
        },
      },
      organizationCause,
      now,
    ));
  } catch (error) {
    if (user) {
      await platform.identity.release('email', user.email, userId, organizationCause, now);
      await platform.identity.release('username', user.username, userId, organizationCause, now);
    }
    throw error;
  }
  let userPosition: LogPosition | null = null;
  if (user) {
    ({ position: userPosition } = await createUser(
      platform,
      { ...user, organizationId, status: organization.status },
      organizationCause,
      now,
      { userId, sendCode: options.sendCode, keysReserved: true },
    ));
  }
  return { organizationId, userId: user ? userId : null, position: latest(position, userPosition) };
}

/**
 * Told to the owner of an address when someone registers with it again: self-registration answers
 * that attempt as it answers a new address (so the answer does not tell who has an account), and
 * the owner learns here what happened and what to do.
 */
export function alreadyRegisteredNotice(
  user: { email: string; name: string; username: string; emailConfirmed: boolean },
  now: string,
) {
  const when = `${now.slice(0, 16).replace('T', ' ')} UTC`;
  const lines = [
    `Hello ${user.name},`,
    '',
    `Someone, perhaps you, asked on ${when} to register a new Freight Marketplace organization with this e-mail address.`,
    'Email already registered: nothing was created, and your account is unchanged.',
    '',
    user.emailConfirmed
      ? `To use your account, sign in with this address or your username (${user.username}); if you forgot your password, choose 'Forgot password?' on the sign-in page.`
      : "Your registration has already started: enter the security code we sent you on the confirmation page. If you forgot your password, choose 'Forgot password?' on the sign-in page.",
    '',
    'If this was not you, you can ignore this message.',
    '',
    'The Freight Marketplace team',
  ];
  return {
    to: user.email,
    subject: 'Your Freight Marketplace registration',
    text: lines.join('\n'),
  };
}
