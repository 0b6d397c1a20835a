/**
 * Events of accounts for read model specs: people and organizations signing up and being let in or
 * blocked, the searches they save, the ELD services they install, the leads of the landing page.
 */
import { GenericStatus, Role, type RoleId } from '../../domain/catalog.ts';
import { leadStream, type InterestRegistered } from '../../domain/leads/lead.types.ts';
import {
  organizationStream,
  type CarrierProfile,
  type CarrierProfileChanged,
  type OrganizationActivated,
  type OrganizationBlocked,
  type OrganizationContactChanged,
  type OrganizationRegistered,
  type ShipperProfileChanged,
} from '../../domain/organizations/organization.ts';
import {
  savedSearchStream,
  type SearchCriteria,
  type SearchDeleted,
  type SearchSaved,
} from '../../domain/searches/savedSearch.types.ts';
import {
  organizationServiceStream,
  type ServiceCredentialsUpdated,
  type ServiceInstalled,
} from '../../domain/services/organizationService.types.ts';
import {
  userStream,
  type PasswordChanged,
  type PasswordReset,
  type PasswordResetRequested,
  type SignupConfirmed,
  type UserActivated,
  type UserBlocked,
  type UserDeleted,
  type UserRegistered,
  type UserUpdated,
} from '../../domain/users/user.ts';
import { carrier, on } from './trade.ts';

type At = { at: string };

/** A person signing up (Pending, a code e-mailed) or added by an administrator (Active). */
export const userRegistered = (
  userId: string,
  {
    at,
    name = 'Sam Shipper',
    email = 'sam@example.com',
    roleId = Role.Shipper,
    organizationId = null,
    byAdministrator = false,
  }: At & {
    name?: string;
    email?: string;
    roleId?: RoleId;
    organizationId?: string | null;
    byAdministrator?: boolean;
  },
) =>
  on<UserRegistered>(userStream(userId), {
    type: 'UserRegistered',
    data: {
      userId,
      email,
      username: email.split('@')[0]!,
      name,
      phone: '+15555550100',
      roleId,
      organizationId,
      passwordHash: 'hash',
      status: byAdministrator ? GenericStatus.Active : GenericStatus.Pending,
      confirmation: byAdministrator ? null : { codeHash: 'code', expiresAt: at },
      registeredAt: at,
    },
  });

export const signupConfirmed = (userId: string, { at }: At) =>
  on<SignupConfirmed>(userStream(userId), {
    type: 'SignupConfirmed',
    data: { userId, confirmedAt: at },
  });
export const userActivated = (userId: string, { at }: At) =>
  on<UserActivated>(userStream(userId), {
    type: 'UserActivated',
    data: { userId, activatedAt: at },
  });
export const userBlocked = (userId: string, { at }: At) =>
  on<UserBlocked>(userStream(userId), { type: 'UserBlocked', data: { userId, blockedAt: at } });
export const userUpdated = (
  userId: string,
  { at, name, email }: At & { name: string; email: string },
) =>
  on<UserUpdated>(userStream(userId), {
    type: 'UserUpdated',
    data: {
      userId,
      email,
      username: email.split('@')[0]!,
      name,
      phone: '+15555550199',
      updatedAt: at,
    },
  });
export const passwordChanged = (userId: string, { at }: At) =>
  on<PasswordChanged>(userStream(userId), {
    type: 'PasswordChanged',
    data: { userId, passwordHash: 'new hash', changedAt: at },
  });
export const passwordResetRequested = (userId: string, { at }: At) =>
  on<PasswordResetRequested>(userStream(userId), {
    type: 'PasswordResetRequested',
    data: { userId, resetCodeHash: 'reset code', expiresAt: at, requestedAt: at },
  });
export const passwordReset = (userId: string, { at }: At) =>
  on<PasswordReset>(userStream(userId), {
    type: 'PasswordReset',
    data: { userId, passwordHash: 'reset hash', resetAt: at },
  });
export const userDeleted = (userId: string, { at }: At) =>
  on<UserDeleted>(userStream(userId), { type: 'UserDeleted', data: { userId, deletedAt: at } });

export const carrierProfile = (change: Partial<CarrierProfile> = {}): CarrierProfile => ({
  mcNumber: 123456,
  dotNumber: 654321,
  eldProvider: null,
  trucks: [{ type: 1, count: 3 }],
  trailers: [],
  driverTeams: [],
  documents: {
    mcAuthority: null,
    certificateOfInsurance: null,
    w9Form: null,
    noticeOfAssignment: null,
  },
  ...change,
});

const contact = (email: string) => ({
  address: '1 Main St, Chicago, IL',
  person: 'Casey Carrier',
  email,
  phone: '+15555550101',
});

/** A carrier signing up (Pending) or added by an administrator (Active); a shipper with `shipper`. */
export const organizationRegistered = (
  organizationId: string,
  {
    at,
    name = 'Fast Freight',
    shipper = false,
    byAdministrator = false,
  }: At & { name?: string; shipper?: boolean; byAdministrator?: boolean },
) =>
  on<OrganizationRegistered>(organizationStream(organizationId), {
    type: 'OrganizationRegistered',
    data: {
      organizationId,
      type: shipper ? 'Shipper' : 'Carrier',
      name,
      contact: contact('office@example.com'),
      carrier: shipper ? null : carrierProfile(),
      shipper: shipper ? { insuredAmount: 1, signatureFileId: null } : null,
      status: byAdministrator ? GenericStatus.Active : GenericStatus.Pending,
      registeredBy: null,
      registeredAt: at,
    },
  });
export const contactChanged = (
  organizationId: string,
  { at, name, email }: At & { name: string; email: string },
) =>
  on<OrganizationContactChanged>(organizationStream(organizationId), {
    type: 'OrganizationContactChanged',
    data: { organizationId, name, contact: contact(email), changedAt: at },
  });
export const carrierProfileChanged = (
  organizationId: string,
  { at, profile }: At & { profile: CarrierProfile },
) =>
  on<CarrierProfileChanged>(organizationStream(organizationId), {
    type: 'CarrierProfileChanged',
    data: { organizationId, profile, changedAt: at },
  });
export const shipperProfileChanged = (
  organizationId: string,
  { at, signatureFileId }: At & { signatureFileId: string },
) =>
  on<ShipperProfileChanged>(organizationStream(organizationId), {
    type: 'ShipperProfileChanged',
    data: { organizationId, profile: { insuredAmount: 2, signatureFileId }, changedAt: at },
  });
export const organizationActivated = (organizationId: string, { at }: At) =>
  on<OrganizationActivated>(organizationStream(organizationId), {
    type: 'OrganizationActivated',
    data: { organizationId, activatedAt: at },
  });
export const organizationBlocked = (organizationId: string, { at }: At) =>
  on<OrganizationBlocked>(organizationStream(organizationId), {
    type: 'OrganizationBlocked',
    data: { organizationId, blockedAt: at },
  });

export const searchSaved = (
  searchId: string,
  { at, name, ...criteria }: At & { name: string } & SearchCriteria,
) =>
  on<SearchSaved>(savedSearchStream(searchId), {
    type: 'SearchSaved',
    data: { searchId, organizationId: carrier, userId: carrier, name, at, ...criteria },
  });
export const searchDeleted = (searchId: string, { at }: At) =>
  on<SearchDeleted>(savedSearchStream(searchId), {
    type: 'SearchDeleted',
    data: { searchId, organizationId: carrier, userId: carrier, at },
  });

export const serviceInstalled = (
  id: string,
  { at, serviceId, clientId }: At & { serviceId: string; clientId: string | null },
) =>
  on<ServiceInstalled>(organizationServiceStream(id), {
    type: 'ServiceInstalled',
    data: {
      organizationServiceId: id,
      organizationId: carrier,
      serviceId,
      clientId,
      sealedSecret: 'sealed:first',
      installedBy: null,
      installedAt: at,
    },
  });
export const credentialsUpdated = (
  id: string,
  { at, clientId, sealedSecret }: At & { clientId: string | null; sealedSecret: string },
) =>
  on<ServiceCredentialsUpdated>(organizationServiceStream(id), {
    type: 'ServiceCredentialsUpdated',
    data: { organizationServiceId: id, clientId, sealedSecret, updatedBy: null, updatedAt: at },
  });

export const interestRegistered = (leadId: string, { at, email }: At & { email: string }) =>
  on<InterestRegistered>(leadStream(leadId), {
    type: 'InterestRegistered',
    data: { leadId, email, registeredAt: at },
  });
