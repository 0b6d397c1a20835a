/**
 * The 24-hour hold on a new contact e-mail or phone of an organization (docs/api.md "Organizations
 * and access"): the answer of a held change, the pending change as Account Settings shows it, and
 * the old contact's cancel link.
 */
import { z } from 'zod';
import { errorAnswers } from './common.ts';

/** `PUT users/organization` when the e-mail or phone changed: 202, nothing of the contact changed yet. */
export const ContactChangePendingSchema = z
  .object({
    /** When the new contact applies (ISO time, 24 hours after the request), unless cancelled or replaced. */
    pendingUntil: z.string(),
  })
  .meta({ id: 'ContactChangePending' });
export type ContactChangePending = z.infer<typeof ContactChangePendingSchema>;

/** The change waiting in `GET account` (`organization.pendingContactChange`). */
export const PendingContactChangeSchema = z
  .object({
    changeId: z.string(),
    requestedAt: z.string(),
    pendingUntil: z.string(),
    address: z.string(),
    person: z.string(),
    email: z.string(),
    phone: z.string(),
  })
  .meta({ id: 'PendingContactChange' });
export type PendingContactChange = z.infer<typeof PendingContactChangeSchema>;

/** The password and code a held change needs, beside the name and contact. */
export const contactChangeConfirmation = {
  /** The caller's current password: required when the e-mail or phone changes. */
  password: z.string().max(1024).optional(),
  /** A code of the caller's authenticator app, or an unused recovery code: required then when two-factor is on. */
  code: z.string().max(64).optional(),
};

export const ContactChangeTokenParams = z.object({ token: z.string().min(1).max(200) });

export const ContactChangeCancelledSchema = z
  .object({ cancelled: z.literal(true) })
  .meta({ id: 'ContactChangeCancelled' });
export type ContactChangeCancelled = z.infer<typeof ContactChangeCancelledSchema>;

export const contactChangeCancelContract = {
  params: ContactChangeTokenParams,
  response: { 200: ContactChangeCancelledSchema, ...errorAnswers(400, 404, 429) },
};
