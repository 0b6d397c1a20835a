import { GenericStatus } from '../catalog.ts';
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { assertNever, type Command, type Decider } from '../shared/event.ts';
import {
  evolveOrganization,
  initialOrganization,
  noDocuments,
  organizationStatusName,
  type CarrierAuthority,
  type CarrierDocuments,
  type CarrierProfile,
  type InsuredAmount,
  type Organization,
  type OrganizationContact,
  type OrganizationEvent,
  type OrganizationType,
  type RegisteredOrganization,
  type ShipperProfile,
  type VehicleCount,
} from './organization.ts';

/** A carrier profile as sent: documents not sent are absent (at registration: none uploaded). */
export type CarrierProfileInput = {
  mcNumber: number | null;
  dotNumber: number | null;
  eldProvider: string | null;
  trucks: VehicleCount[];
  trailers: VehicleCount[];
  driverTeams: VehicleCount[];
  documents: Partial<CarrierDocuments>;
};

export type RegisterOrganization = Command<
  'RegisterOrganization',
  {
    organizationId: string;
    type: OrganizationType;
    name: string;
    contact: OrganizationContact;
    /** Required for a Carrier; ignored for a Shipper. */
    carrier: CarrierProfileInput | null;
    /** Required for a Shipper; ignored for a Carrier. */
    shipper: ShipperProfile | null;
    /** Pending for self-registration, Active when an administrator creates it. */
    status: typeof GenericStatus.Pending | typeof GenericStatus.Active;
    registeredBy: string | null;
    now: string;
  }
>;
export type ChangeOrganizationContact = Command<
  'ChangeOrganizationContact',
  {
    organizationId: string;
    name: string;
    contact: OrganizationContact;
    /** Absent: the two-factor rule stays as it is. */
    twoFactorRequired?: boolean;
    now: string;
  }
>;
/**
 * `mcNumber` and `dotNumber` null mean "not sent" (the form disables them once set); a document
 * absent from `documents` keeps its current file id.
 */
export type ChangeCarrierProfile = Command<
  'ChangeCarrierProfile',
  CarrierProfileInput & { organizationId: string; now: string }
>;
/** `signatureFileId` absent keeps the current signature. */
export type ChangeShipperProfile = Command<
  'ChangeShipperProfile',
  {
    organizationId: string;
    insuredAmount: InsuredAmount;
    signatureFileId?: string | null;
    now: string;
  }
>;
export type ActivateOrganization = Command<
  'ActivateOrganization',
  { organizationId: string; now: string }
>;
export type BlockOrganization = Command<
  'BlockOrganization',
  { organizationId: string; now: string }
>;

/** Its first user's sign-up lapsed: a Pending organization is removed with it. */
export type LapseOrganizationRegistration = Command<
  'LapseOrganizationRegistration',
  { organizationId: string; now: string }
>;

/**
 * A check of the carrier's authority: recorded as CarrierAuthorityChecked the first time, then as
 * CarrierAuthorityChanged only when the status or the insurance differs from the last one recorded.
 */
export type RecordCarrierAuthority = Command<
  'RecordCarrierAuthority',
  { organizationId: string; authority: CarrierAuthority }
>;

export type OrganizationCommand =
  | RegisterOrganization
  | RecordCarrierAuthority
  | ChangeOrganizationContact
  | ChangeCarrierProfile
  | ChangeShipperProfile
  | ActivateOrganization
  | BlockOrganization
  | LapseOrganizationRegistration;

export const decideOrganization = (
  command: OrganizationCommand,
  state: Organization,
): OrganizationEvent[] => {
  switch (command.type) {
    case 'RegisterOrganization':
      return registerOrganization(command, state);
    case 'ChangeOrganizationContact':
      return changeContact(command, registered(state));
    case 'ChangeCarrierProfile':
      return changeCarrierProfile(command, registered(state));
    case 'ChangeShipperProfile':
      return changeShipperProfile(command, registered(state));
    case 'ActivateOrganization':
      return activateOrganization(command, registered(state));
    case 'BlockOrganization':
      return blockOrganization(command, registered(state));
    case 'LapseOrganizationRegistration':
      return lapseRegistration(command, registered(state));
    case 'RecordCarrierAuthority':
      return recordCarrierAuthority(command, registered(state));
    default:
      return assertNever(command);
  }
};

export const organizationDecider: Decider<Organization, OrganizationCommand, OrganizationEvent> = {
  initialState: initialOrganization,
  evolve: evolveOrganization,
  decide: decideOrganization,
};

const registered = (state: Organization): RegisteredOrganization => {
  if (!state.registered) throw new NotFoundError('Organization not found');
  return state;
};

const isPositiveInteger = (value: number) => Number.isInteger(value) && value > 0;

const checkNumbers = ({ mcNumber, dotNumber }: CarrierProfileInput) => {
  if (mcNumber !== null && !isPositiveInteger(mcNumber))
    throw ValidationError.field('mcNumber', 'Please enter your MC Number');
  if (dotNumber !== null && !isPositiveInteger(dotNumber))
    throw ValidationError.field('dotNumber', 'Please enter your DOT Number');
};

const checkName = (name: string) => {
  if (name.trim() === '') throw ValidationError.field('name', 'Please enter company name!');
};

const registerOrganization = (
  { data }: RegisterOrganization,
  state: Organization,
): OrganizationEvent[] => {
  if (state.registered)
    throw new IllegalStateError(
      `Organization is already registered (${organizationStatusName(state.status)})`,
    );
  if (state.lapsed) throw new IllegalStateError('This organization was registered once already');
  checkName(data.name);
  let carrier: CarrierProfile | null = null;
  let shipper: ShipperProfile | null = null;
  if (data.type === 'Carrier') {
    if (!data.carrier)
      throw ValidationError.field('carrier', 'A carrier organization needs its carrier profile');
    checkNumbers(data.carrier);
    carrier = {
      ...data.carrier,
      documents: { ...noDocuments(), ...definedOnly(data.carrier.documents) },
    };
  } else {
    if (!data.shipper)
      throw ValidationError.field('shipper', 'A shipper organization needs its shipper profile');
    shipper = data.shipper;
  }
  return [
    {
      type: 'OrganizationRegistered',
      data: {
        organizationId: data.organizationId,
        type: data.type,
        name: data.name,
        contact: data.contact,
        carrier,
        shipper,
        status: data.status,
        registeredBy: data.registeredBy,
        registeredAt: data.now,
      },
    },
  ];
};

const changeContact = (
  { data }: ChangeOrganizationContact,
  state: RegisteredOrganization,
): OrganizationEvent[] => {
  checkName(data.name);
  return [
    {
      type: 'OrganizationContactChanged',
      data: {
        organizationId: state.organizationId,
        name: data.name,
        contact: data.contact,
        changedAt: data.now,
      },
    },
    // The two-factor rule only when it was sent and differs.
    ...(data.twoFactorRequired === undefined || data.twoFactorRequired === state.twoFactorRequired
      ? []
      : [
          {
            type: 'OrganizationTwoFactorPolicyChanged' as const,
            data: {
              organizationId: state.organizationId,
              twoFactorRequired: data.twoFactorRequired,
              changedAt: data.now,
            },
          },
        ]),
  ];
};

/** MC and DOT numbers identify the carrier with the FMCSA: set once, never changed. */
const keepOnceSet = (
  field: 'mcNumber' | 'dotNumber',
  label: string,
  current: number | null,
  sent: number | null,
): number | null => {
  if (sent === null || sent === current) return current;
  if (current !== null) {
    const message = `${label} cannot be changed once set`;
    throw new IllegalStateError(message, [{ path: field, message }]);
  }
  return sent;
};

const changeCarrierProfile = (
  { data }: ChangeCarrierProfile,
  state: RegisteredOrganization,
): OrganizationEvent[] => {
  if (state.type !== 'Carrier' || !state.carrier)
    throw new IllegalStateError(`Organization is a ${state.type} and has no carrier profile`);
  checkNumbers(data);
  const current = state.carrier;
  const profile: CarrierProfile = {
    mcNumber: keepOnceSet('mcNumber', 'MC Number', current.mcNumber, data.mcNumber),
    dotNumber: keepOnceSet('dotNumber', 'DOT Number', current.dotNumber, data.dotNumber),
    eldProvider: data.eldProvider,
    trucks: data.trucks,
    trailers: data.trailers,
    driverTeams: data.driverTeams,
    documents: { ...current.documents, ...definedOnly(data.documents) },
  };
  return [
    {
      type: 'CarrierProfileChanged',
      data: { organizationId: state.organizationId, profile, changedAt: data.now },
    },
  ];
};

/** Drops keys whose value is undefined, so that `{w9Form: undefined}` keeps the stored file. */
const definedOnly = (documents: Partial<CarrierDocuments>): Partial<CarrierDocuments> =>
  Object.fromEntries(Object.entries(documents).filter(([, value]) => value !== undefined));

const changeShipperProfile = (
  { data }: ChangeShipperProfile,
  state: RegisteredOrganization,
): OrganizationEvent[] => {
  if (state.type !== 'Shipper' || !state.shipper)
    throw new IllegalStateError(`Organization is a ${state.type} and has no shipper profile`);
  const signatureFileId =
    data.signatureFileId === undefined ? state.shipper.signatureFileId : data.signatureFileId;
  return [
    {
      type: 'ShipperProfileChanged',
      data: {
        organizationId: state.organizationId,
        profile: { insuredAmount: data.insuredAmount, signatureFileId },
        changedAt: data.now,
      },
    },
  ];
};

const activateOrganization = (
  { data }: ActivateOrganization,
  state: RegisteredOrganization,
): OrganizationEvent[] => {
  if (state.status === GenericStatus.Active)
    throw new IllegalStateError('Organization is already Active');
  return [
    {
      type: 'OrganizationActivated',
      data: { organizationId: state.organizationId, activatedAt: data.now },
    },
  ];
};

const blockOrganization = (
  { data }: BlockOrganization,
  state: RegisteredOrganization,
): OrganizationEvent[] => {
  if (state.status === GenericStatus.Blocked)
    throw new IllegalStateError('Organization is already Blocked');
  return [
    {
      type: 'OrganizationBlocked',
      data: { organizationId: state.organizationId, blockedAt: data.now },
    },
  ];
};

/** Only a registration still waiting for its vetting lapses: an activated or blocked one stays. */
const lapseRegistration = (
  { data }: LapseOrganizationRegistration,
  state: RegisteredOrganization,
): OrganizationEvent[] => {
  if (state.status !== GenericStatus.Pending)
    throw new IllegalStateError(
      `Only a Pending organization's registration lapses; this one is ${organizationStatusName(state.status)}`,
    );
  return [
    {
      type: 'OrganizationRegistrationLapsed',
      data: { organizationId: state.organizationId, lapsedAt: data.now },
    },
  ];
};

const recordCarrierAuthority = (
  { data }: RecordCarrierAuthority,
  state: RegisteredOrganization,
): OrganizationEvent[] => {
  if (state.type !== 'Carrier')
    throw new IllegalStateError(`Organization is a ${state.type} and has no operating authority`);
  const { authority } = data;
  const organizationId = state.organizationId;
  const last = state.authority;
  if (!last) return [{ type: 'CarrierAuthorityChecked', data: { organizationId, ...authority } }];
  if (last.status === authority.status && last.insuranceOnFile === authority.insuranceOnFile)
    return [];
  return [
    {
      type: 'CarrierAuthorityChanged',
      data: {
        organizationId,
        ...authority,
        previous: { status: last.status, insuranceOnFile: last.insuranceOnFile },
      },
    },
  ];
};
