/**
 * The lead decider: a valid e-mail address registers interest once; registering the same address
 * again changes nothing (and so does not e-mail the administrator a second time).
 */
import { uuidV5 } from '../offers/offer.decide.ts';
import { EMAIL_FORMAT_MESSAGE, EMAIL_REQUIRED_MESSAGE, emailSchema } from '../schemas/fields.ts';
import { ValidationError } from '../shared/errors.ts';
import { assertNever, type Decider } from '../shared/event.ts';
import type { Lead, LeadCommand, LeadEvent, RegisterInterest } from './lead.types.ts';

/** The longest address SMTP carries (RFC 5321: 254 characters in a path). */
export const EMAIL_MAX_LENGTH = 254;

/** Case and surrounding spaces do not make a new lead. */
export const normaliseEmail = (email: string): string =>
  email.normalize('NFKC').trim().toLowerCase();

/** Fixed for good: changing it would give every address already registered a second lead. */
const LEAD_NAMESPACE = '9a6e2c41-3b7d-4f08-a5c2-7e1d0b4f8c36';

/** The lead id of an address: a name-based UUID (version 5) of the normalised address. */
export const leadIdFor = (email: string): string => uuidV5(normaliseEmail(email), LEAD_NAMESPACE);

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
  const email = normaliseEmail(data.email);
  if (email === '') throw ValidationError.field('email', EMAIL_REQUIRED_MESSAGE);
  if (email.length > EMAIL_MAX_LENGTH || !emailSchema.safeParse(email).success)
    throw ValidationError.field('email', EMAIL_FORMAT_MESSAGE);
  if (data.leadId !== leadIdFor(email))
    throw ValidationError.field('email', 'The lead id does not belong to this address');
  if (state.exists) return [];
  return [
    { type: 'InterestRegistered', data: { leadId: data.leadId, email, registeredAt: data.now } },
  ];
};
