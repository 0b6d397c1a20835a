/**
 * The organization's rules: a pure decide per command over the state built by `evolveOrganization` —
 * registration, name and contact (with the two-factor rule), shipper profile, activation, blocking and
 * a lapsed registration. The carrier profile and authority decisions live in
 * organizationCarrier.decide.ts and are combined here.
 */
import { GenericStatus } from '../catalog.ts';
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { assertNever, type Command, type Decider } from '../shared/event.ts';
import {
  evolveOrganization,
  initialOrganization,
  noDocuments,
  organizationStatusName,
  type CarrierProfile,
  type InsuredAmount,
  type Organization,
  type OrganizationContact,
  type OrganizationEvent,
  type OrganizationType,
  type RegisteredOrganization,
  type ShipperProfile,
} from './organization.ts';
import {
  applyContactChange,
  cancelContactChange,
  changeContact,
  checkName,
  type ApplyOrganizationContactChange,
  type CancelOrganizationContactChange,
  type ChangeOrganizationContact,
} from './organizationContact.decide.ts';
import {
  changeCarrierProfile,
  checkNumbers,
  definedOnly,
  recordCarrierAuthority,
  type ChangeCarrierProfile,
  type CarrierProfileInput,
  type RecordCarrierAuthority,
} from './organizationCarrier.decide.ts';

export {
  CONTACT_CHANGE_NOT_FOUND,
  CONTACT_HOLD_UNCONFIRMED,
  contactNeedsHold,
} from './organizationContact.decide.ts';
export type {
  ApplyOrganizationContactChange,
  CancelOrganizationContactChange,
  ChangeOrganizationContact,
} from './organizationContact.decide.ts';
export type {
  CarrierProfileInput,
  ChangeCarrierProfile,
  RecordCarrierAuthority,
} from './organizationCarrier.decide.ts';

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

export type OrganizationCommand =
  | RegisterOrganization
  | RecordCarrierAuthority
  | ChangeOrganizationContact
  | CancelOrganizationContactChange
  | ApplyOrganizationContactChange
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
    case 'CancelOrganizationContactChange':
      return cancelContactChange(command, registered(state));
    case 'ApplyOrganizationContactChange':
      return applyContactChange(command, registered(state));
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
