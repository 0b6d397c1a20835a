/**
 * The organization's name and contact, and the 24-hour hold on a new contact e-mail or phone (a
 * fraud protection: a taken account must not quietly move the organization's contact elsewhere):
 * requested, cancelled by the old contact or replaced, applied once due. Combined in
 * organization.decide.ts.
 */
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors.ts';
import type { Command } from '../shared/event.ts';
import type { AccessorialTerms } from '../loads/terms.ts';
import { sameTerms } from '../loads/terms.ts';
import {
  type CarrierFactor,
  CONTACT_CHANGE_HOLD_MS,
  type OrganizationContact,
  type OrganizationEvent,
  type RegisteredOrganization,
} from './organization.ts';

/**
 * The name and the contact. A new contact e-mail or phone (`contactNeedsHold`) does not apply at
 * once: it needs `hold` (the command side checked the member's password and code first), and the
 * whole contact then waits 24 hours (OrganizationContactChangeRequested); the name and the
 * two-factor rule still apply at once.
 */
export type ChangeOrganizationContact = Command<
  'ChangeOrganizationContact',
  {
    organizationId: string;
    name: string;
    contact: OrganizationContact;
    /** Absent: the two-factor rule stays as it is. */
    twoFactorRequired?: boolean;
    /** A shipper's default accessorial terms (null: the platform's); absent: unchanged. */
    defaultTerms?: AccessorialTerms | null;
    /** A shipper's payment terms, net days; absent: unchanged. */
    paymentTermsDays?: number;
    /** A carrier's factor (null: none); absent: unchanged. The command side checked the notice file is the carrier's. */
    factor?: CarrierFactor | null;
    /** The member making the change (cancels a pending change in its name). */
    changedBy?: string;
    /** A change of the e-mail or phone, confirmed: its id and the hash of the old contact's cancel link. */
    hold?: { changeId: string; tokenHash: string };
    now: string;
  }
>;
/** The old contact's link (or a member) cancels the pending change; another or no change: not found. */
export type CancelOrganizationContactChange = Command<
  'CancelOrganizationContactChange',
  { organizationId: string; changeId: string; cancelledBy: 'old-contact' | string; now: string }
>;
/** The held change applies once its 24 hours are over; anything else (applied, cancelled, not due) does nothing. */
export type ApplyOrganizationContactChange = Command<
  'ApplyOrganizationContactChange',
  { organizationId: string; changeId: string; now: string }
>;
export const checkName = (name: string) => {
  if (name.trim() === '') throw ValidationError.field('name', 'Please enter company name!');
};

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const samePhone = (a: string, b: string) => a.replace(/\D/g, '') === b.replace(/\D/g, '');
const sameContact = (a: OrganizationContact, b: OrganizationContact) =>
  a.address.trim() === b.address.trim() &&
  a.person.trim() === b.person.trim() &&
  sameEmail(a.email, b.email) &&
  samePhone(a.phone, b.phone);

/** A new e-mail (case and spaces aside) or phone (its digits) for the contact: it waits 24 hours. */
export const contactNeedsHold = (current: OrganizationContact, next: OrganizationContact) =>
  !sameEmail(current.email, next.email) || !samePhone(current.phone, next.phone);

export const CONTACT_HOLD_UNCONFIRMED =
  'A new contact e-mail or phone needs your password to be confirmed';
export const CONTACT_CHANGE_NOT_FOUND =
  'This change does not exist, was cancelled or has applied already';

export const changeContact = (
  { data }: ChangeOrganizationContact,
  state: RegisteredOrganization,
): OrganizationEvent[] => {
  checkName(data.name);
  const pending = state.pendingContactChange;
  const held = contactNeedsHold(state.contact, data.contact);
  if (held && !data.hold) throw new IllegalStateError(CONTACT_HOLD_UNCONFIRMED);
  const events: OrganizationEvent[] = [];
  // The newest save says what the contact should be: a pending change it does not repeat gives way.
  if (pending && (held || !sameContact(state.contact, data.contact)))
    events.push({
      type: 'OrganizationContactChangeCancelled',
      data: {
        organizationId: state.organizationId,
        changeId: pending.changeId,
        cancelledAt: data.now,
        cancelledBy: data.changedBy ?? 'member',
      },
    });
  if (held && data.hold) {
    // The name applies at once; the contact block waits as a whole.
    if (data.name !== state.name)
      events.push({
        type: 'OrganizationContactChanged',
        data: {
          organizationId: state.organizationId,
          name: data.name,
          contact: state.contact,
          changedAt: data.now,
        },
      });
    events.push({
      type: 'OrganizationContactChangeRequested',
      data: {
        organizationId: state.organizationId,
        changeId: data.hold.changeId,
        requestedBy: data.changedBy ?? 'member',
        requestedAt: data.now,
        pendingUntil: new Date(Date.parse(data.now) + CONTACT_CHANGE_HOLD_MS).toISOString(),
        contact: data.contact,
        previous: state.contact,
        tokenHash: data.hold.tokenHash,
      },
    });
  } else {
    events.push({
      type: 'OrganizationContactChanged',
      data: {
        organizationId: state.organizationId,
        name: data.name,
        contact: data.contact,
        changedAt: data.now,
      },
    });
  }
  // The two-factor rule only when it was sent and differs.
  if (data.twoFactorRequired !== undefined && data.twoFactorRequired !== state.twoFactorRequired)
    events.push({
      type: 'OrganizationTwoFactorPolicyChanged',
      data: {
        organizationId: state.organizationId,
        twoFactorRequired: data.twoFactorRequired,
        changedAt: data.now,
      },
    });
  if (data.defaultTerms !== undefined) {
    if (state.type !== 'Shipper')
      throw ValidationError.field('defaultTerms', 'Only a shipper has default terms for its loads');
    if (!sameTerms(state.defaultTerms ?? null, data.defaultTerms))
      events.push({
        type: 'OrganizationDefaultTermsChanged',
        data: {
          organizationId: state.organizationId,
          defaultTerms: data.defaultTerms,
          changedAt: data.now,
        },
      });
  }
  if (data.paymentTermsDays !== undefined) {
    if (state.type !== 'Shipper')
      throw ValidationError.field('paymentTermsDays', 'Only a shipper sets payment terms');
    const days = data.paymentTermsDays;
    if (!Number.isInteger(days) || days < 0 || days > 120)
      throw ValidationError.field(
        'paymentTermsDays',
        'The payment terms are a whole number of days from 0 to 120',
      );
    if (days !== (state.paymentTermsDays ?? 30))
      events.push({
        type: 'OrganizationPaymentTermsChanged',
        data: { organizationId: state.organizationId, paymentTermsDays: days, changedAt: data.now },
      });
  }
  if (data.factor !== undefined) {
    if (state.type !== 'Carrier')
      throw ValidationError.field('factor', 'Only a carrier names a factor');
    const factor = data.factor
      ? {
          name: data.factor.name.trim(),
          remitTo: data.factor.remitTo.trim(),
          noticeFileId: data.factor.noticeFileId,
        }
      : null;
    if (factor && !factor.name)
      throw ValidationError.field('factor.name', "Please enter the factor's name");
    if (factor && !factor.remitTo)
      throw ValidationError.field('factor.remitTo', "Please enter the factor's remit-to address");
    const current = state.factor ?? null;
    const same =
      current === null
        ? factor === null
        : factor !== null &&
          current.name === factor.name &&
          current.remitTo === factor.remitTo &&
          current.noticeFileId === factor.noticeFileId;
    if (!same)
      events.push({
        type: 'CarrierFactorChanged',
        data: {
          organizationId: state.organizationId,
          factor,
          changedBy: data.changedBy ?? null,
          changedAt: data.now,
        },
      });
  }
  return events;
};

export const cancelContactChange = (
  { data }: CancelOrganizationContactChange,
  state: RegisteredOrganization,
): OrganizationEvent[] => {
  if (state.pendingContactChange?.changeId !== data.changeId)
    throw new NotFoundError(CONTACT_CHANGE_NOT_FOUND);
  return [
    {
      type: 'OrganizationContactChangeCancelled',
      data: {
        organizationId: state.organizationId,
        changeId: data.changeId,
        cancelledAt: data.now,
        cancelledBy: data.cancelledBy,
      },
    },
  ];
};

export const applyContactChange = (
  { data }: ApplyOrganizationContactChange,
  state: RegisteredOrganization,
): OrganizationEvent[] => {
  const pending = state.pendingContactChange;
  if (pending?.changeId !== data.changeId) return [];
  if (Date.parse(data.now) < Date.parse(pending.pendingUntil)) return [];
  return [
    {
      type: 'OrganizationContactChanged',
      data: {
        organizationId: state.organizationId,
        name: state.name,
        contact: pending.contact,
        changedAt: data.now,
        changeId: pending.changeId,
      },
    },
  ];
};
