/**
 * The e-mails of the 24-hour hold on an organization's contact (English, like the product's other
 * e-mails): to the old contact e-mail, what changes, when, and the link that cancels it; to the
 * organization's managers, that a change waits, and that it was cancelled.
 */
import type { OrganizationContact } from '../../domain/organizations/organization.ts';
import type { MailMessage } from '../integrations/mail/mailer.ts';

const minuteOf = (at: string) => `${at.slice(0, 16).replace('T', ' ')} UTC`;

const fieldNames: Record<keyof OrganizationContact, string> = {
  email: 'E-mail',
  phone: 'Phone',
  person: 'Contact person',
  address: 'Address',
};

/** One line per field that changes: "E-mail: old → new". */
export const contactDifferences = (previous: OrganizationContact, next: OrganizationContact) =>
  (Object.keys(fieldNames) as (keyof OrganizationContact)[])
    .filter((field) => previous[field].trim() !== next[field].trim())
    .map((field) => `${fieldNames[field]}: ${previous[field]} → ${next[field]}`);

export type ContactChangeFacts = {
  organizationName: string;
  requestedBy: string;
  previous: OrganizationContact;
  contact: OrganizationContact;
  pendingUntil: string;
  /** It replaced a change that was pending (which will not apply). */
  replaced: boolean;
};

/** To the old contact e-mail: the change, when it applies, and the link that stops it. */
export function contactChangeRequestedMail(
  facts: ContactChangeFacts,
  cancelLink: string,
): MailMessage {
  return {
    to: facts.previous.email,
    subject: `The contact of ${facts.organizationName} changes on ${minuteOf(facts.pendingUntil)}`,
    text: [
      'Hello,',
      '',
      `${facts.requestedBy} asked to change the contact of ${facts.organizationName} on the Freight Marketplace:`,
      ...contactDifferences(facts.previous, facts.contact),
      '',
      `The change takes effect on ${minuteOf(facts.pendingUntil)}. Until then this address stays the organization's contact.`,
      '',
      'If you did not expect this change, cancel it here (no sign-in needed):',
      cancelLink,
      '',
      "Then tell your organization's administrator or our support: someone may have access to an account of your organization.",
      '',
      'The Freight Marketplace team',
    ].join('\n'),
  };
}

/** To each manager: a change of the contact waits for its 24 hours. */
export function contactChangePendingMail(
  manager: { email: string; name: string },
  facts: ContactChangeFacts,
): MailMessage {
  return {
    to: manager.email,
    subject: `A change of ${facts.organizationName}'s contact is pending`,
    text: [
      `Hello ${manager.name},`,
      '',
      `${facts.requestedBy} asked to change the contact of ${facts.organizationName}:`,
      ...contactDifferences(facts.previous, facts.contact),
      '',
      ...(facts.replaced ? ['It replaces the change that was pending, which will not apply.'] : []),
      `It takes effect on ${minuteOf(facts.pendingUntil)}. The old contact (${facts.previous.email}) was sent a link that cancels it until then; a new change of the contact replaces it.`,
      '',
      'If nobody in your organization asked for it, cancel it with that link and have your colleagues change their passwords.',
      '',
      'The Freight Marketplace team',
    ].join('\n'),
  };
}

/** To each manager: the pending change was cancelled (by the old contact, or by a member's new save). */
export function contactChangeCancelledMail(
  manager: { email: string; name: string },
  facts: {
    organizationName: string;
    previous: OrganizationContact;
    contact: OrganizationContact;
    /** Who cancelled it, in words. */
    by: string;
  },
): MailMessage {
  return {
    to: manager.email,
    subject: `The change of ${facts.organizationName}'s contact was cancelled`,
    text: [
      `Hello ${manager.name},`,
      '',
      `${facts.by} cancelled the pending change of ${facts.organizationName}'s contact:`,
      ...contactDifferences(facts.previous, facts.contact),
      '',
      'It will not take effect.',
      '',
      'The Freight Marketplace team',
    ].join('\n'),
  };
}
