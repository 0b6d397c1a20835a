/**
 * The use cases of organizations: registering one with its first user (self-registration, the
 * Superadmin, bootstrap), and the Superadmin's activation and block. The organization's own edits
 * of its profile are in `organizationProfiles.ts`.
 */
import { randomUUID } from 'node:crypto';
import { GenericStatus } from '../../domain/catalog.ts';
import type { CarrierProfileInput } from '../../domain/organizations/organization.decide.ts';
import type {
  OrganizationContact,
  OrganizationType,
  ShipperProfile,
} from '../../domain/organizations/organization.ts';
import {
  FILE_REQUIRED_MESSAGE,
  type carrierDocumentFields,
  type CreateOrganizationData,
} from '../../domain/schemas/index.ts';
import { assertFound, ValidationError } from '../../domain/shared/errors.ts';
import { usersOfOrganizations } from '../../projections/users/users.queries.ts';
import { latest, type LogPosition } from '../eventstore/eventStore.ts';
import { saveFiles } from '../integrations/files/saveFiles.ts';
import type { UploadedFile } from '../integrations/files/uploads.ts';
import { organizationRoom } from '../realtime/rooms.ts';
import { metadataFor, type Caller } from './caller.ts';
import type { IdentityDeps } from './identityDeps.ts';
import { createUser, type NewUser } from './users.ts';

export type NewOrganization = {
  type: OrganizationType;
  name: string;
  contact: OrganizationContact;
  carrier: CarrierProfileInput | null;
  shipper: ShipperProfile | null;
  status: 1 | 2;
};

/**
 * Registers an organization and its first user together; the user's keys are reserved first. The
 * events name the caller, or, when no one signed in registers (a sign-up, bootstrap), the user and
 * organization they create, with the request in `options.requestId`.
 */
export async function createOrganizationWithUser(
  deps: Pick<IdentityDeps, 'identity' | 'mailer' | 'logger' | 'authority'>,
  organization: NewOrganization,
  user: Omit<NewUser, 'organizationId' | 'status'> | null,
  caller: Caller | null,
  now: string,
  options: {
    organizationId?: string;
    userId?: string;
    sendCode?: boolean;
    requestId?: string;
  } = {},
) {
  const { identity } = deps;
  const organizationId = options.organizationId ?? randomUUID();
  const userId = options.userId ?? randomUUID();
  const metadata = metadataFor(
    {
      userId: caller?.actor.userId ?? userId,
      organizationId: caller?.actor.organizationId ?? organizationId,
    },
    caller?.requestId ?? options.requestId ?? null,
    now,
  );
  // Keys first (the usual refusal), then the organization, then its user: nothing is half-written.
  if (user)
    await identity.reserveIdentity(user.email, user.username, userId, caller, now, metadata);
  let position: LogPosition | null;
  try {
    ({ position } = await identity.organization(
      {
        type: 'RegisterOrganization',
        data: {
          organizationId,
          ...organization,
          registeredBy: caller?.actor.userId ?? (user ? userId : null),
          now,
        },
      },
      caller,
      now,
      metadata,
    ));
  } catch (error) {
    if (user) {
      await identity.release('email', user.email, userId, caller, now, metadata);
      await identity.release('username', user.username, userId, caller, now, metadata);
    }
    throw error;
  }
  let userPosition: LogPosition | null = null;
  if (user) {
    ({ position: userPosition } = await createUser(
      deps,
      { ...user, organizationId, status: organization.status },
      caller,
      now,
      { userId, sendCode: options.sendCode, keysReserved: true, metadata },
    ));
  }
  // A carrier with a DOT number has its authority checked at once (CarrierAuthorityChecked).
  let authorityPosition: LogPosition | null = null;
  if (deps.authority && organization.carrier?.dotNumber) {
    const { dotNumber, mcNumber } = organization.carrier;
    try {
      const authority = await deps.authority.check(dotNumber, mcNumber, now);
      ({ position: authorityPosition } = await identity.organization(
        { type: 'RecordCarrierAuthority', data: { organizationId, authority } },
        caller,
        now,
        metadata,
      ));
    } catch (error) {
      deps.logger.error({ err: error, organizationId }, 'carrier authority not checked');
    }
  }
  return {
    organizationId,
    userId: user ? userId : null,
    position: latest(latest(position, userPosition), authorityPosition),
  };
}

type CarrierDocuments = Partial<Record<(typeof carrierDocumentFields)[number], UploadedFile>>;

/**
 * The Superadmin creates an organization, Active at once and without a user: a carrier with its
 * documents (MC authority, certificate of insurance and W-9 required), a shipper with none.
 */
export async function createOrganization(
  deps: Pick<IdentityDeps, 'identity' | 'mailer' | 'logger' | 'database'>,
  caller: Caller,
  data: CreateOrganizationData,
  documents: CarrierDocuments,
  now: string,
) {
  if (data.type === 'Carrier') {
    for (const name of ['mcAuthority', 'certificateOfInsurance', 'w9Form'] as const) {
      if (!documents[name]) throw ValidationError.field(name, FILE_REQUIRED_MESSAGE);
    }
  } else {
    const unexpected = Object.keys(documents)[0];
    if (unexpected)
      throw ValidationError.field(unexpected, 'A shipper organization has no documents');
  }
  const organizationId = randomUUID();
  const { address, person, email, phone } = data.organizationContactInfo;
  const saved = await saveFiles(deps.database.db, organizationId, documents);
  try {
    const { position } = await createOrganizationWithUser(
      deps,
      {
        type: data.type,
        name: data.name,
        contact: { address, person, email, phone },
        carrier:
          data.type === 'Carrier'
            ? {
                mcNumber: data.mcNumber,
                dotNumber: data.dotNumber,
                eldProvider: data.eldProvider,
                trucks: data.trucks,
                trailers: data.trailers,
                driverTeams: data.driverTeams,
                documents: saved.ids,
              }
            : null,
        shipper:
          data.type === 'Shipper'
            ? { insuredAmount: data.insuredAmount as 1 | 2, signatureFileId: null }
            : null,
        status: 2,
      },
      null,
      caller,
      now,
      { organizationId },
    );
    return { organizationId, position };
  } catch (error) {
    await saved.discard();
    throw error;
  }
}

/**
 * The Superadmin activates or blocks an organization (docs/api.md "Organizations and access").
 * Blocking ends every member's sessions and sockets at once; activating a Pending organization lets
 * in the users waiting with it. Asking for the status it already has changes nothing.
 */
export async function changeOrganizationStatus(
  deps: Pick<IdentityDeps, 'identity' | 'tokens' | 'realtime' | 'organizationStatus' | 'database'>,
  caller: Caller,
  organizationId: string,
  status: 'Active' | 'Blocked',
  now: string,
) {
  const { identity } = deps;
  const organization = assertFound(await identity.loadOrganization(organizationId), 'Organization');
  const target = status === 'Active' ? GenericStatus.Active : GenericStatus.Blocked;
  let position: LogPosition | null = null;
  if (organization.status !== target) {
    ({ position } = await identity.organization(
      {
        type: status === 'Active' ? 'ActivateOrganization' : 'BlockOrganization',
        data: { organizationId, now },
      },
      caller,
      now,
    ));
  }
  deps.organizationStatus.forget(organizationId);
  if (target === GenericStatus.Blocked) {
    await deps.tokens.revokeAllForOrganization(organizationId);
    deps.realtime.disconnectRoom(organizationRoom(organizationId));
  } else if (organization.status === GenericStatus.Pending) {
    // The vetting is done: whoever registered with the organization and waits with it is let in too.
    const waiting = await usersOfOrganizations(
      deps.database.db,
      [organizationId],
      GenericStatus.Pending,
    );
    for (const user of waiting) {
      const activated = await identity
        .user({ type: 'ActivateUser', data: { userId: user.id, now } }, caller, now)
        .catch(() => null);
      position = latest(position, activated?.position ?? null);
    }
  }
  return { position };
}
