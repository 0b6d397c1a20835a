/**
 * The lead decider: what a visitor typed in the landing form (usually an e-mail address; no format
 * check, as the specification says) registers interest once; the same text again changes nothing
 * (and so does not e-mail the administrator a second time).
 */
import { uuidV5 } from '../offers/offer.decide.ts';
import { interestContactSchema, oneLine } from '../schemas/fields.ts';
import { ValidationError } from '../shared/errors.ts';
import { assertNever, type Decider } from '../shared/event.ts';
import type { Lead, LeadCommand, LeadEvent, RegisterInterest } from './lead.types.ts';

/** Case, surrounding spaces and line breaks do not make a new lead. */
export const normaliseContact = (contact: string): string => oneLine(contact).toLowerCase();

/** Fixed for good: changing it would give every address already registered a second lead. */
const LEAD_NAMESPACE = '9a6e2c41-3b7d-4f08-a5c2-7e1d0b4f8c36';

/** The lead id of an address: a name-based UUID (version 5) of the normalised address. */
export const leadIdFor = (contact: string): string =>
  uuidV5(normaliseContact(contact), LEAD_NAMESPACE);

export const initialLead = (): Lead => ({ exists: false });

export const evolveLead = (state: Lead, event: LeadEvent): Lead => {
  switch (event.type) {
    case 'InterestRegistered':
      return state.exists
        ? state
        : {
            exists: true,
            leadId: event.data.leadId,
            email: event.data.email,
            registeredAt: event.data.registeredAt,
          };
    default:
      return assertNever(event.type);
  }
};

export const decideLead = (command: LeadCommand, state: Lead): LeadEvent[] => {
  switch (command.type) {
    case 'RegisterInterest':
      return registerInterest(command, state);
    default:
      return assertNever(command.type);
  }
};

export const leadDecider: Decider<Lead, LeadCommand, LeadEvent> = {
  initialState: initialLead,
  evolve: evolveLead,
  decide: decideLead,
};

const registerInterest = ({ data }: RegisterInterest, state: Lead): LeadEvent[] => {
  const checked = interestContactSchema.safeParse(data.email);
  if (!checked.success) throw ValidationError.field('email', checked.error.issues[0]!.message);
  const email = normaliseContact(checked.data);
  if (data.leadId !== leadIdFor(email))
    throw ValidationError.field('email', 'The lead id does not belong to this address');
  if (state.exists) return [];
  return [
    { type: 'InterestRegistered', data: { leadId: data.leadId, email, registeredAt: data.now } },
  ];
};
