/**
 * Recording a carrier's operating authority on its organization's stream: checked at registration
 * (CarrierAuthorityChecked) and daily (CarrierAuthorityChanged when the status or the insurance
 * differs from the last check). A change for the worse is e-mailed to the carrier's managers and the
 * Superadmins; the webhook `carrier.authority_changed` follows from the event (server/webhooks/).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { GenericStatus } from '../../domain/catalog.ts';
import { Role } from '../../domain/permissions.ts';
import type {
  CarrierAuthority,
  CarrierAuthorityChanged,
  OrganizationEvent,
} from '../../domain/organizations/organization.ts';
import type { DB } from '../../storage/schema.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import type { AuthorityChecker } from '../integrations/fmcsa/authority.ts';
import type { Mailer } from '../integrations/mail/mailer.ts';
import type { Caller } from './caller.ts';
import type { IdentityCommands } from './identity.ts';

export type AuthorityDeps = {
  identity: IdentityCommands;
  authority: AuthorityChecker;
};

/** Checks the carrier's DOT number now and records it; null for an organization that is no carrier. */
export async function checkCarrierAuthority(
  deps: AuthorityDeps,
  organizationId: string,
  caller: Caller | null,
  now: string,
): Promise<{ events: OrganizationEvent[]; position: LogPosition | null } | null> {
  const organization = await deps.identity.loadOrganization(organizationId);
  if (!organization?.registered || organization.type !== 'Carrier' || !organization.carrier)
    return null;
  const { dotNumber, mcNumber } = organization.carrier;
  const authority = await deps.authority.check(dotNumber, mcNumber, now);
  const { events, position } = await deps.identity.organization(
    { type: 'RecordCarrierAuthority', data: { organizationId, authority } },
    caller,
    now,
  );
  return { events, position };
}

/** Worse than before: no longer active, or the insurance gone. */
export const isLapse = ({ data }: CarrierAuthorityChanged): boolean =>
  (data.previous.status === 'active' && data.status !== 'active') ||
  (data.previous.insuranceOnFile && !data.insuranceOnFile);

const describe = (authority: Pick<CarrierAuthority, 'status' | 'insuranceOnFile'>) =>
  `authority ${authority.status}, insurance ${authority.insuranceOnFile ? 'on file' : 'not on file'}`;

/** The carrier's Active managers and every Active Superadmin hear of a lapse. */
export async function mailAuthorityLapse(
  deps: { db: Kysely<DB>; mailer: Mailer; logger: Pick<Logger, 'warn'> },
  organizationName: string,
  event: CarrierAuthorityChanged,
): Promise<number> {
  const { data } = event;
  const recipients = await deps.db
    .selectFrom('users_view')
    .select('email')
    .where('status', '=', GenericStatus.Active)
    .where((eb) =>
      eb.or([
        eb('role_id', '=', Role.Superadmin),
        eb.and([eb('role_id', '=', Role.Carrier), eb('organization_id', '=', data.organizationId)]),
      ]),
    )
    .execute();
  const subject = `Operating authority changed: ${organizationName} (DOT ${data.dotNumber})`;
  const text = [
    `FMCSA's records for ${organizationName} (DOT ${data.dotNumber}${data.mcNumber ? `, MC ${data.mcNumber}` : ''}) changed on ${data.checkedAt.slice(0, 10)}:`,
    `before: ${describe(data.previous)}`,
    `now: ${describe(data)}`,
    'A carrier without active authority and insurance on file may not haul loads booked on the marketplace.',
  ].join('\n');
  let sent = 0;
  for (const { email } of recipients) {
    try {
      await deps.mailer.send({ to: email, subject, text });
      sent++;
    } catch (error) {
      deps.logger.warn({ err: error, to: email }, 'authority change e-mail not sent');
    }
  }
  return sent;
}
