/**
 * What the identity use cases (`users.ts`, `organizations.ts`, `userDetails.ts`, `registration.ts`,
 * `passwordReset.ts`) work with: the identity streams, and the services a change of identity
 * reaches (sessions, mail, the organization status the guard reads, the sockets). A running
 * server's platform has all of them.
 */
import type { Logger } from 'pino';
import type { Database } from '../../storage/connection.ts';
import type { LoginLimiter } from '../auth/loginLimiter.ts';
import type { OrganizationStatusCache } from '../auth/organizationStatus.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { AuthorityChecker } from '../integrations/fmcsa/authority.ts';
import type { Mailer } from '../integrations/mail/mailer.ts';
import type { Realtime } from '../realtime/realtime.ts';
import type { IdentityCommands } from './identity.ts';

export type IdentityDeps = {
  identity: IdentityCommands;
  database: Pick<Database, 'db'>;
  mailer: Pick<Mailer, 'send'>;
  logger: Pick<Logger, 'error'>;
  tokens: Pick<
    TokenService,
    'revokeAllForUser' | 'revokeOtherSessions' | 'revokeAllForOrganization'
  >;
  loginLimiter: LoginLimiter;
  organizationStatus: Pick<OrganizationStatusCache, 'forget'>;
  realtime: Pick<Realtime, 'disconnectRoom'>;
  /** Checks a new carrier's operating authority (absent: no check recorded). */
  authority?: AuthorityChecker;
};
