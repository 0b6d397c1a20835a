/**
 * The organization's name and contact from Account Settings, and the 24-hour hold on a new contact
 * e-mail or phone (docs/domain.md "Users and organizations"): the member confirms it with its
 * password and, when enrolled, a code; the old contact is e-mailed a link that cancels it, the
 * managers are told; the scheduler (server/reactors/contactChangeApply.ts) applies it once due.
 */
import { completeTerms, STANDARD_TERMS, type TermsInput } from '../../domain/loads/terms.ts';
import { randomUUID } from 'node:crypto';
import { GenericStatus } from '../../domain/catalog.ts';
import { contactNeedsHold } from '../../domain/organizations/organization.decide.ts';
import type {
  CarrierFactor,
  OrganizationContactChangeRequested,
  OrganizationContact,
} from '../../domain/organizations/organization.ts';
import { ACCOUNT_CHANGE_ORGANIZATION, hasAny, permissionsFor } from '../../domain/permissions.ts';
import { assertFound, NotFoundError, ValidationError } from '../../domain/shared/errors.ts';
import { createFileStore } from '../integrations/files/files.ts';
import {
  contactChangeByHash,
  dueContactChanges,
} from '../../projections/organizationContactChanges/organizationContactChanges.queries.ts';
import { usersOfOrganizations } from '../../projections/users/users.queries.ts';
import { hashShareToken, newShareToken } from '../auth/shareTokens.ts';
import type { SecretBox } from '../cluster/secretBox.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { metadataFor, type Caller } from './caller.ts';
import type { IdentityDeps } from './identityDeps.ts';
import {
  contactChangeCancelledMail,
  contactChangePendingMail,
  contactChangeRequestedMail,
  type ContactChangeFacts,
} from './organizationContactNotices.ts';
import { confirmPasswordAndCode } from './twoFactor.ts';

export const CONTACT_CHANGE_LINK_NOT_FOUND =
  'This change does not exist, was cancelled or has applied already';

type Deps = Pick<IdentityDeps, 'identity' | 'database' | 'mailer' | 'logger' | 'loginLimiter'> & {
  secrets: SecretBox;
  config: { publicUrl: string };
};

export type ContactChangeInput = OrganizationContact & {
  name: string;
  twoFactorRequired?: boolean | undefined;
  /** A shipper's default accessorial terms (fields left out: the platform's); null: the platform's. */
  defaultTerms?: TermsInput | null | undefined;
  /** A shipper's payment terms, net days. */
  paymentTermsDays?: number | undefined;
  /** A carrier's factor (null: none). */
  factor?: CarrierFactor | null | undefined;
  /** The member's current password: needed for a new e-mail or phone. */
  password?: string | undefined;
  /** A code of the member's authenticator app or a recovery code, when its two-factor is on. */
  code?: string | undefined;
};

/** A factor sent that is not the one on file (names and address as trimmed). */
const factorChanges = (current: CarrierFactor | null, next: CarrierFactor | null | undefined) =>
  next !== undefined &&
  (current === null || next === null
    ? current !== next
    : current.name !== next.name.trim() ||
      current.remitTo !== next.remitTo.trim() ||
      current.noticeFileId !== next.noticeFileId);

/** The organization's Active members who may change its contact: they hear of a held change. */
async function managersOf(deps: Pick<Deps, 'database'>, organizationId: string) {
  const users = await usersOfOrganizations(
    deps.database.db,
    [organizationId],
    GenericStatus.Active,
  );
  return users.filter((user) => hasAny(permissionsFor(user.role_id), ACCOUNT_CHANGE_ORGANIZATION));
}

async function mailAll(
  deps: Pick<Deps, 'mailer' | 'logger'>,
  messages: Parameters<Deps['mailer']['send']>[0][],
) {
  for (const message of messages)
    await deps.mailer
      .send(message)
      .catch((error: unknown) =>
        deps.logger.error(
          { err: error, to: message.to },
          'a contact change notice could not be sent',
        ),
      );
}

/**
 * Saves the caller's own organization's name and contact (a Superadmin has none: 404). A new
 * e-mail or phone is held: it needs the password (and the code), and answers `pendingUntil`.
 */
export async function changeOrganizationContact(
  deps: Deps,
  caller: Caller,
  change: ContactChangeInput,
  address: string,
  now: string,
): Promise<{ position: LogPosition | null; pendingUntil: string | null }> {
  const { organizationId } = caller.actor;
  if (!organizationId) throw new NotFoundError('Organization not found');
  const organization = assertFound(
    await deps.identity.loadOrganization(organizationId),
    'Organization',
  );
  const contact: OrganizationContact = {
    address: change.address,
    person: change.person,
    email: change.email,
    phone: change.phone,
  };
  if (change.factor) {
    // The notice of assignment is a file the carrier itself uploaded.
    const notice = await createFileStore(deps.database.db).getMeta(change.factor.noticeFileId);
    if (notice?.organizationId !== organizationId)
      throw ValidationError.field(
        'factor.noticeFileId',
        'The notice of assignment is not a file of your organization',
      );
  }
  let token: string | null = null;
  let hold: { changeId: string; tokenHash: string } | undefined;
  const user = assertFound(await deps.identity.loadUser(caller.actor.userId), 'User');
  const held = contactNeedsHold(organization.contact, contact);
  // Where a carrier is paid (its factor's remit-to) is guarded like its contact: the password (and code).
  if (held || factorChanges(organization.factor ?? null, change.factor))
    await confirmPasswordAndCode(deps, user, change, address, caller.requestId, now);
  if (held) {
    token = newShareToken();
    hold = { changeId: randomUUID(), tokenHash: hashShareToken(token) };
  }
  const { events, position } = await deps.identity.organization(
    {
      type: 'ChangeOrganizationContact',
      data: {
        organizationId,
        name: change.name,
        contact,
        ...(change.twoFactorRequired === undefined
          ? {}
          : { twoFactorRequired: change.twoFactorRequired }),
        ...(change.defaultTerms === undefined
          ? {}
          : {
              defaultTerms:
                change.defaultTerms === null
                  ? null
                  : completeTerms(change.defaultTerms, STANDARD_TERMS),
            }),
        ...(change.paymentTermsDays === undefined
          ? {}
          : { paymentTermsDays: change.paymentTermsDays }),
        ...(change.factor === undefined ? {} : { factor: change.factor }),
        changedBy: caller.actor.userId,
        ...(hold ? { hold } : {}),
        now,
      },
    },
    caller,
    now,
  );
  const requested = events.find(
    (event): event is OrganizationContactChangeRequested =>
      event.type === 'OrganizationContactChangeRequested',
  );
  if (!requested || !token) {
    // A save that set another contact with the same e-mail and phone ended the pending change.
    const pending = organization.pendingContactChange;
    if (pending && events.some((event) => event.type === 'OrganizationContactChangeCancelled')) {
      const facts = {
        organizationName: change.name,
        previous: pending.previous,
        contact: pending.contact,
        by: `${user.name} (${user.username}), saving another contact,`,
      };
      await mailAll(
        deps,
        (await managersOf(deps, organizationId)).map((manager) =>
          contactChangeCancelledMail(manager, facts),
        ),
      );
    }
    return { position, pendingUntil: null };
  }
  const facts: ContactChangeFacts = {
    organizationName: change.name,
    requestedBy: `${user.name} (${user.username})`,
    previous: requested.data.previous,
    contact: requested.data.contact,
    pendingUntil: requested.data.pendingUntil,
    replaced: events.some((event) => event.type === 'OrganizationContactChangeCancelled'),
  };
  const link = `${deps.config.publicUrl}/organization-change/${token}/cancel`;
  await mailAll(deps, [
    contactChangeRequestedMail(facts, link),
    ...(await managersOf(deps, organizationId)).map((manager) =>
      contactChangePendingMail(manager, facts),
    ),
  ]);
  return { position, pendingUntil: requested.data.pendingUntil };
}

/**
 * The old contact's link cancels the pending change it was sent for (no sign-in). An unknown token,
 * or a change already cancelled, replaced or applied: 404.
 */
export async function cancelContactChangeByToken(
  deps: Omit<Deps, 'secrets' | 'loginLimiter' | 'config'>,
  token: string,
  requestId: string,
  now: string,
): Promise<{ position: LogPosition | null }> {
  const row = await contactChangeByHash(deps.database.db, hashShareToken(token));
  if (row?.status !== 'pending') throw new NotFoundError(CONTACT_CHANGE_LINK_NOT_FOUND);
  const before = await deps.identity.loadOrganization(row.organization_id);
  const pending = before?.pendingContactChange;
  if (!before || pending?.changeId !== row.id)
    throw new NotFoundError(CONTACT_CHANGE_LINK_NOT_FOUND);
  const { position } = await deps.identity.organization(
    {
      type: 'CancelOrganizationContactChange',
      data: {
        organizationId: row.organization_id,
        changeId: row.id,
        cancelledBy: 'old-contact',
        now,
      },
    },
    null,
    now,
    metadataFor({ userId: null, organizationId: row.organization_id }, requestId, now),
  );
  const facts = {
    organizationName: before.name,
    previous: pending.previous,
    contact: pending.contact,
    by: `The old contact (${pending.previous.email})`,
  };
  await mailAll(
    deps,
    (await managersOf(deps, row.organization_id)).map((manager) =>
      contactChangeCancelledMail(manager, facts),
    ),
  );
  return { position };
}

/**
 * Applies every pending change whose 24 hours are over at `now` (OrganizationContactChanged with its
 * `changeId`), decided on the organization's stream with the revision read: a change cancelled or
 * applied meanwhile (by another pass, another process) does nothing. Answers how many applied.
 */
export async function applyDueContactChanges(
  deps: Pick<Deps, 'identity' | 'database' | 'logger'>,
  now: string,
  limit = 200,
): Promise<number> {
  let applied = 0;
  for (const { id, organization_id } of await dueContactChanges(deps.database.db, now, limit)) {
    try {
      const { events } = await deps.identity.organization(
        {
          type: 'ApplyOrganizationContactChange',
          data: { organizationId: organization_id, changeId: id, now },
        },
        null,
        now,
      );
      applied += events.length;
    } catch (error) {
      deps.logger.error(
        { err: error, organizationId: organization_id, changeId: id },
        'a held contact change could not be applied',
      );
    }
  }
  return applied;
}
