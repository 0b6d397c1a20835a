/**
 * The organization aggregate (stream `organization-<uuid>`): a Shipper or a Carrier company, its
 * contact block, its type's profile and its status (docs/domain.md "Users and organizations").
 */
import { GenericStatus, type OrganizationType } from '../catalog.ts';
import type { AccessorialTerms } from '../loads/terms.ts';
import { assertNever, type Event } from '../shared/event.ts';

export type { OrganizationType } from '../catalog.ts';

export const organizationStream = (organizationId: string): string =>
  `organization-${organizationId}`;

/** Organizations use the generic statuses 1 Pending, 2 Active, 3 Blocked. */
export type OrganizationStatus =
  | typeof GenericStatus.Pending
  | typeof GenericStatus.Active
  | typeof GenericStatus.Blocked;

const statusNames: Record<OrganizationStatus, string> = { 1: 'Pending', 2: 'Active', 3: 'Blocked' };
export const organizationStatusName = (status: OrganizationStatus): string => statusNames[status];

export type OrganizationContact = { address: string; person: string; email: string; phone: string };

/** One line of a carrier's fleet: a truck type, trailer type or driver team id and how many. */
export type VehicleCount = { type: number; count: number };

/** Stored file ids of the carrier's documents; null where none was uploaded. */
export type CarrierDocuments = {
  mcAuthority: string | null;
  certificateOfInsurance: string | null;
  w9Form: string | null;
  noticeOfAssignment: string | null;
};
export type CarrierDocumentName = keyof CarrierDocuments;
export const carrierDocumentNames: readonly CarrierDocumentName[] = [
  'mcAuthority',
  'certificateOfInsurance',
  'w9Form',
  'noticeOfAssignment',
];
export const noDocuments = (): CarrierDocuments => ({
  mcAuthority: null,
  certificateOfInsurance: null,
  w9Form: null,
  noticeOfAssignment: null,
});

export type CarrierProfile = {
  /** Null until set; once set it never changes. */
  mcNumber: number | null;
  /** Null until set; once set it never changes. */
  dotNumber: number | null;
  eldProvider: string | null;
  trucks: VehicleCount[];
  trailers: VehicleCount[];
  driverTeams: VehicleCount[];
  documents: CarrierDocuments;
};

/** 1 under $100,000.00, 2 over $100,000.00 (catalog `insuredAmounts`). */
export type InsuredAmount = 1 | 2;
export type ShipperProfile = { insuredAmount: InsuredAmount; signatureFileId: string | null };

export type OrganizationRegistered = Event<
  'OrganizationRegistered',
  {
    organizationId: string;
    type: OrganizationType;
    name: string;
    contact: OrganizationContact;
    /** Present exactly when `type` is Carrier. */
    carrier: CarrierProfile | null;
    /** Present exactly when `type` is Shipper. */
    shipper: ShipperProfile | null;
    /** Pending after self-registration, Active when an administrator created it. */
    status: typeof GenericStatus.Pending | typeof GenericStatus.Active;
    /** The user who registered it: the new first user, or the administrator. */
    registeredBy: string | null;
    registeredAt: string;
  }
>;
export type OrganizationContactChanged = Event<
  'OrganizationContactChanged',
  {
    organizationId: string;
    name: string;
    contact: OrganizationContact;
    changedAt: string;
    /** Present when the change was held for 24 hours and applied now (OrganizationContactChangeRequested). */
    changeId?: string;
  }
>;

/** How long a change of the contact's e-mail or phone waits before it applies (24 hours). */
export const CONTACT_CHANGE_HOLD_MS = 24 * 60 * 60 * 1000;

/**
 * A member asked to change the contact's e-mail or phone (password and, when enrolled, a code
 * checked): the new contact applies at `pendingUntil` unless the old contact cancels it through the
 * link mailed to it (only the SHA-256 of its token is kept) or a newer request replaces it.
 */
export type OrganizationContactChangeRequested = Event<
  'OrganizationContactChangeRequested',
  {
    organizationId: string;
    changeId: string;
    requestedBy: string;
    requestedAt: string;
    pendingUntil: string;
    contact: OrganizationContact;
    previous: OrganizationContact;
    tokenHash: string;
  }
>;
/** A pending change that will not apply: the old contact cancelled it ('old-contact'), or a member replaced it (its user id). */
export type OrganizationContactChangeCancelled = Event<
  'OrganizationContactChangeCancelled',
  {
    organizationId: string;
    changeId: string;
    cancelledAt: string;
    cancelledBy: 'old-contact' | string;
  }
>;
/**
 * The whole profile after the change, documents merged (a document not sent keeps its file id), so
 * that a read model replaces its row without looking at earlier events.
 */
export type CarrierProfileChanged = Event<
  'CarrierProfileChanged',
  { organizationId: string; profile: CarrierProfile; changedAt: string }
>;
export type ShipperProfileChanged = Event<
  'ShipperProfileChanged',
  { organizationId: string; profile: ShipperProfile; changedAt: string }
>;
export type OrganizationActivated = Event<
  'OrganizationActivated',
  { organizationId: string; activatedAt: string }
>;
export type OrganizationBlocked = Event<
  'OrganizationBlocked',
  { organizationId: string; blockedAt: string }
>;

/**
 * A self-registered organization whose first user's sign-up lapsed (its code expired unconfirmed and
 * a new registration took the e-mail or username): it is gone, as if never registered.
 */
export type OrganizationRegistrationLapsed = Event<
  'OrganizationRegistrationLapsed',
  { organizationId: string; lapsedAt: string }
>;

/** A carrier's operating authority in FMCSA's records (docs/domain.md "The money and trust around a load"). */
export type AuthorityStatus = 'active' | 'inactive' | 'revoked' | 'unknown';
/** Where the answer came from: the Superadmin's import of FMCSA's file, or FMCSA's QCMobile API. */
export type AuthoritySource = 'import' | 'qcmobile';
export type CarrierAuthority = {
  dotNumber: number | null;
  mcNumber: number | null;
  status: AuthorityStatus;
  insuranceOnFile: boolean;
  source: AuthoritySource;
  checkedAt: string;
};
/** The first check of a carrier's authority (at its registration, or the first daily check). */
export type CarrierAuthorityChecked = Event<
  'CarrierAuthorityChecked',
  CarrierAuthority & { organizationId: string }
>;
/** A later check found the status or the insurance different from the last one recorded. */
export type CarrierAuthorityChanged = Event<
  'CarrierAuthorityChanged',
  CarrierAuthority & {
    organizationId: string;
    previous: { status: AuthorityStatus; insuranceOnFile: boolean };
  }
>;
/** A manager's rule that every member signs in with two-factor: from its next sign-in, a member without it is sent to enrol. */
export type OrganizationTwoFactorPolicyChanged = Event<
  'OrganizationTwoFactorPolicyChanged',
  { organizationId: string; twoFactorRequired: boolean; changedAt: string }
>;

/** A shipper's default accessorial terms for the loads it posts from now on (null: the platform's). */
export type OrganizationDefaultTermsChanged = Event<
  'OrganizationDefaultTermsChanged',
  { organizationId: string; defaultTerms: AccessorialTerms | null; changedAt: string }
>;

/** A shipper's payment terms, net days, printed on its rate confirmations and used by its invoices. */
export type OrganizationPaymentTermsChanged = Event<
  'OrganizationPaymentTermsChanged',
  { organizationId: string; paymentTermsDays: number; changedAt: string }
>;
/** The factor a carrier sold its invoices to, from its notice of assignment (a file of its own). */
export type CarrierFactor = { name: string; remitTo: string; noticeFileId: string };
/** A carrier names its factor (null: none): its next invoices are paid to the factor's remit-to. */
export type CarrierFactorChanged = Event<
  'CarrierFactorChanged',
  {
    organizationId: string;
    factor: CarrierFactor | null;
    changedBy: string | null;
    changedAt: string;
  }
>;

export type OrganizationEvent =
  | OrganizationPaymentTermsChanged
  | CarrierFactorChanged
  | OrganizationDefaultTermsChanged
  | OrganizationRegistered
  | CarrierAuthorityChecked
  | CarrierAuthorityChanged
  | OrganizationContactChanged
  | OrganizationContactChangeRequested
  | OrganizationContactChangeCancelled
  | CarrierProfileChanged
  | ShipperProfileChanged
  | OrganizationActivated
  | OrganizationBlocked
  | OrganizationRegistrationLapsed
  | OrganizationTwoFactorPolicyChanged;

/** The change of the contact waiting for its 24 hours (at most one per organization). */
export type PendingContactChange = {
  changeId: string;
  requestedBy: string;
  requestedAt: string;
  pendingUntil: string;
  contact: OrganizationContact;
  previous: OrganizationContact;
  tokenHash: string;
};

export type RegisteredOrganization = {
  registered: true;
  organizationId: string;
  type: OrganizationType;
  name: string;
  contact: OrganizationContact;
  carrier: CarrierProfile | null;
  shipper: ShipperProfile | null;
  status: OrganizationStatus;
  registeredAt: string;
  /** The last check of a carrier's authority; absent until one is recorded. */
  authority?: CarrierAuthority;
  /** Every member must sign in with two-factor (the members without it are sent to enrol). */
  twoFactorRequired: boolean;
  /** A change of the contact's e-mail or phone waiting for its 24 hours; null when none waits. */
  pendingContactChange: PendingContactChange | null;
  /** A shipper's default accessorial terms for its new loads; absent or null: the platform's. */
  defaultTerms?: AccessorialTerms | null;
  /** A shipper's payment terms, net days; absent: the platform's 30. */
  paymentTermsDays?: number;
  /** A carrier's factor; absent or null: it is paid itself. */
  factor?: CarrierFactor | null;
};
/** `lapsed`: registered once, gone since (OrganizationRegistrationLapsed); its id is never reused. */
export type Organization = { registered: false; lapsed?: true } | RegisteredOrganization;

export const initialOrganization = (): Organization => ({ registered: false });

export const evolveOrganization = (state: Organization, event: OrganizationEvent): Organization => {
  if (event.type === 'OrganizationRegistered') {
    const { organizationId, type, name, contact, carrier, shipper, status, registeredAt } =
      event.data;
    return {
      registered: true,
      organizationId,
      type,
      name,
      contact,
      carrier,
      shipper,
      status,
      registeredAt,
      twoFactorRequired: false,
      pendingContactChange: null,
    };
  }
  if (!state.registered) return state;
  switch (event.type) {
    case 'OrganizationContactChanged':
      return {
        ...state,
        name: event.data.name,
        contact: event.data.contact,
        pendingContactChange:
          event.data.changeId !== undefined &&
          event.data.changeId === state.pendingContactChange?.changeId
            ? null
            : state.pendingContactChange,
      };
    case 'OrganizationContactChangeRequested': {
      const { changeId, requestedBy, requestedAt, pendingUntil, contact, previous, tokenHash } =
        event.data;
      return {
        ...state,
        pendingContactChange: {
          changeId,
          requestedBy,
          requestedAt,
          pendingUntil,
          contact,
          previous,
          tokenHash,
        },
      };
    }
    case 'OrganizationContactChangeCancelled':
      return event.data.changeId === state.pendingContactChange?.changeId
        ? { ...state, pendingContactChange: null }
        : state;
    case 'CarrierProfileChanged':
      return { ...state, carrier: event.data.profile };
    case 'ShipperProfileChanged':
      return { ...state, shipper: event.data.profile };
    case 'OrganizationActivated':
      return { ...state, status: GenericStatus.Active };
    case 'OrganizationBlocked':
      return { ...state, status: GenericStatus.Blocked };
    case 'OrganizationRegistrationLapsed':
      return { registered: false, lapsed: true };
    case 'CarrierAuthorityChecked':
    case 'CarrierAuthorityChanged': {
      const { dotNumber, mcNumber, status, insuranceOnFile, source, checkedAt } = event.data;
      return {
        ...state,
        authority: { dotNumber, mcNumber, status, insuranceOnFile, source, checkedAt },
      };
    }
    case 'OrganizationTwoFactorPolicyChanged':
      return { ...state, twoFactorRequired: event.data.twoFactorRequired };
    case 'OrganizationDefaultTermsChanged':
      return { ...state, defaultTerms: event.data.defaultTerms };
    case 'OrganizationPaymentTermsChanged':
      return { ...state, paymentTermsDays: event.data.paymentTermsDays };
    case 'CarrierFactorChanged':
      return { ...state, factor: event.data.factor };
    default:
      return assertNever(event);
  }
};
