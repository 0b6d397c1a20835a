import { roles } from '../../domain/catalog.ts';
import { permissionsFor } from '../../domain/permissions.ts';
import { assertFound, UnauthorizedError } from '../../domain/shared/errors.ts';
import { organizationRatings } from '../../projections/marketplace/marketplace.queries.ts';
import { verifyPassword } from '../auth/passwords.ts';
import {
  hasTwoFactor,
  mustEnrol,
  recogniseDevice,
  TWO_FACTOR_REQUIRED,
  useSecondFactor,
} from '../commands/twoFactor.ts';
import type { App } from '../http/routeContext.ts';
import { can, ORGANIZATION_BLOCKED, requireActor } from '../http/auth.ts';
import {
  loginContract,
  logoutContract,
  profileContract,
  publicProfileContract,
  refreshTokenContract,
  type Profile,
  type PublicProfile,
} from '../../domain/contracts/auth.contract.ts';

const INVALID_CREDENTIALS = 'Invalid email or password';
export const EMAIL_NOT_CONFIRMED =
  'Please confirm your e-mail address first: enter the code we sent you';

/** The signed-in user as the client keeps it: identity, organization and permissions. */
export async function profileOf(app: App, userId: string): Promise<Profile> {
  const { identity } = app.platform;
  const user = assertFound(await identity.loadUser(userId), 'User');
  const organization = user.organizationId
    ? await identity.loadOrganization(user.organizationId)
    : null;
  const role = roles.find((entry) => entry.id === user.roleId)!;
  return {
    id: userId,
    name: user.name,
    username: user.username,
    email: user.email,
    role: { id: role.id, name: role.name },
    roles: [role.name],
    organization:
      organization && user.organizationId
        ? {
            id: user.organizationId,
            name: organization.name,
            type: organization.type,
            status: organization.status,
          }
        : null,
    permissions: [...permissionsFor(user.roleId)],
    ...(await ratingsEntry(app, user.organizationId)),
    twoFactor: {
      enabled: hasTwoFactor(user),
      mustEnrol: mustEnrol(app.platform.config, user, organization),
      organizationRequired: organization?.twoFactorRequired ?? false,
    },
  };
}

/** `ratings` for a user of a rated organization (shown in the sidebar with two decimals); absent otherwise. */
async function ratingsEntry(
  app: App,
  organizationId: string | null,
): Promise<{ ratings?: Record<string, number> }> {
  if (!organizationId) return {};
  const ratings = (await organizationRatings(app.platform.database.db, [organizationId])).get(
    organizationId,
  );
  return ratings ? { ratings } : {};
}

/** Sign-in, token rotation, sign-out and the caller's profile. */
export async function authRoutes(app: App) {
  const { identity, tokens, loginLimiter } = app.platform;

  app.post(
    '/login',
    {
      schema: { tags: ['auth'], summary: 'Sign in with e-mail or username', ...loginContract },
      config: { public: true },
    },
    async (request) => {
      const { email: account, password, code } = request.body;
      // The socket's address, never X-Forwarded-For: a client must not reset its limit with a header.
      const address = request.socket.remoteAddress ?? 'unknown';
      loginLimiter.assertAllowed(account, address);
      const userId =
        (await identity.userIdByEmail(account)) ?? (await identity.userIdByUsername(account));
      const user = userId ? await identity.loadUser(userId) : null;
      // An unknown account costs the same hash as a known one, so timing does not tell them apart.
      const valid = await verifyPassword(user?.passwordHash, password);
      if (!user || !userId || !valid) {
        // A known account's failure counts under both names it signs in with, so alternating the
        // e-mail and the username does not double the guesses.
        loginLimiter.fail(user ? [account, user.email, user.username] : account, address);
        throw new UnauthorizedError(INVALID_CREDENTIALS);
      }
      const organization = user.organizationId
        ? await identity.loadOrganization(user.organizationId)
        : null;
      if (user.status === 3)
        throw new UnauthorizedError('Your account is blocked. Please contact support.');
      if (user.organizationId && organization?.status !== 1 && organization?.status !== 2)
        throw new UnauthorizedError(ORGANIZATION_BLOCKED);
      // The registration flow confirms the e-mailed code before the first sign-in (only the right password learns this).
      if (!user.emailConfirmed) throw new UnauthorizedError(EMAIL_NOT_CONFIRMED);
      const now = new Date().toISOString();
      // The second step, once the password was right: a code of the app or a recovery code, each
      // accepted once; a wrong one counts as a failed sign-in.
      if (hasTwoFactor(user)) {
        if (!code) throw new UnauthorizedError(TWO_FACTOR_REQUIRED);
        try {
          await useSecondFactor(app.platform, user, code, request.id, now);
        } catch (error) {
          if (error instanceof UnauthorizedError)
            loginLimiter.fail([account, user.email, user.username], address);
          throw error;
        }
      }
      loginLimiter.succeed([account, user.email, user.username]);
      await recogniseDevice(
        app.platform,
        user,
        { userAgent: request.headers['user-agent'] ?? '', address },
        request.id,
        now,
      );
      const pair = await tokens.issue({
        id: userId,
        organizationId: user.organizationId,
        roleId: user.roleId,
        mustEnrol: mustEnrol(app.platform.config, user, organization),
      });
      return {
        accessToken: pair.accessToken,
        refreshToken: pair.refreshToken,
        expiresIn: pair.expiresIn,
        user: await profileOf(app, userId),
      };
    },
  );

  app.post(
    '/refresh-token',
    {
      schema: {
        tags: ['auth'],
        summary: 'Trade a refresh token for a new pair (single use)',
        ...refreshTokenContract,
      },
      config: { public: true },
    },
    async (request) => {
      const pair = await tokens.refresh(request.body.refreshToken);
      return {
        accessToken: pair.accessToken,
        refreshToken: pair.refreshToken,
        expiresIn: pair.expiresIn,
      };
    },
  );

  app.post(
    '/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out: the refresh token family is revoked',
        ...logoutContract,
      },
      config: { public: true },
    },
    async (request, reply) => {
      await tokens.revokeFamilyOf(request.body.refreshToken);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/profile',
    {
      schema: { tags: ['auth'], summary: 'The signed-in user', ...profileContract },
      // Open while the organization waits for its vetting (Pending), and to a session that must
      // enrol in two-factor sign-in: the user's own account.
      config: { whilePending: true, whileEnrolling: true },
      onRequest: can(),
    },
    async (request) => profileOf(app, requireActor(request).userId),
  );

  app.get(
    '/profile/:id',
    {
      schema: {
        tags: ['auth'],
        summary: 'Public profile of a user: name, organization',
        ...publicProfileContract,
      },
      onRequest: can(),
    },
    async (request): Promise<PublicProfile> => {
      const user = assertFound(await identity.loadUser(request.params.id), 'User');
      const organization = user.organizationId
        ? await identity.loadOrganization(user.organizationId)
        : null;
      return {
        id: request.params.id,
        name: user.name,
        organization:
          organization && user.organizationId
            ? { id: user.organizationId, name: organization.name, type: organization.type }
            : null,
        ...(await ratingsEntry(app, user.organizationId)),
      };
    },
  );
}
