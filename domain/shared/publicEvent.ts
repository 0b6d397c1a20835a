/**
 * An event as it may be shown to a person or an integration: without its secrets. The log keeps
 * what a decision needs (a password's hash, the hash of a one-time code or of a tracking link's
 * token, an ELD secret sealed with the server's key); none of it is ever anyone's to read, the
 * Superadmin's included, since a hash can be guessed at offline and a sealed secret opened by
 * whoever later holds the key. Every reader that hands events out (the raw event feed, a load's
 * history in JSON and CSV, the tour entries of the sockets and the webhooks) goes through
 * `publicEvent`; deciders, projections and the command side read the events as they are.
 */
import type { OrganizationEvent } from '../organizations/organization.ts';
import type { OrganizationServiceEvent } from '../services/organizationService.types.ts';
import type { TourEvent } from '../tours/tour.types.ts';
import type { UserEvent } from '../users/user.ts';

type EventWithSecrets = UserEvent | OrganizationEvent | OrganizationServiceEvent | TourEvent;

/**
 * The secret fields of each event type, as dotted paths into its data; a type not listed holds
 * none. `publicEvent.spec.ts` reads the event types of `domain/` and fails when a field named like
 * a password, a secret, a hash or a token is in neither this list nor its list of fields known not
 * to be secret.
 */
export const SECRET_FIELDS = {
  UserRegistered: ['passwordHash', 'confirmation.codeHash'],
  SignupCodeResent: ['confirmation.codeHash'],
  PasswordChanged: ['passwordHash'],
  PasswordResetRequested: ['resetCodeHash'],
  PasswordReset: ['passwordHash'],
  ServiceInstalled: ['sealedSecret'],
  ServiceCredentialsUpdated: ['sealedSecret'],
  TourShared: ['tokenHash'],
  TourAssigned: ['sealedReleaseSecret'],
  DockLinkCreated: ['tokenHash'],
  TwoFactorSetupStarted: ['sealedSecret'],
  TwoFactorEnabled: ['recoveryCodeHashes'],
  RecoveryCodeUsed: ['codeHash'],
  OrganizationContactChangeRequested: ['tokenHash'],
} as const satisfies { readonly [T in EventWithSecrets['type']]?: readonly string[] };

const secretPaths: Readonly<Record<string, readonly string[]>> = SECRET_FIELDS;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `data` without the field at `path`; the objects along the path are copied, never changed. */
function without(data: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [key, ...rest] = path;
  if (key === undefined || !(key in data)) return data;
  const copy = { ...data };
  if (rest.length === 0) {
    delete copy[key];
    return copy;
  }
  const inner = data[key];
  if (isRecord(inner)) copy[key] = without(inner, rest);
  return copy;
}

/** An event as `publicEvent` answers it: its data no longer holds every field its type declares. */
export type PublicEvent<E extends { type: string; data: Record<string, unknown> }> = Omit<
  E,
  'data'
> & { data: Record<string, unknown> };

/** The event with the same type, metadata and everything else, its data without the secret fields of its type. */
export function publicEvent<E extends { type: string; data: Record<string, unknown> }>(
  event: E,
): PublicEvent<E> {
  const paths = secretPaths[event.type];
  if (!paths || !isRecord(event.data)) return event;
  return {
    ...event,
    data: paths.reduce((data, path) => without(data, path.split('.')), event.data),
  };
}
