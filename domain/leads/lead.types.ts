/**
 * A lead (stream `lead-<uuid>`): a visitor of the landing page who left an e-mail address in the
 * sign-up-interest form. One lead per address: its id is derived from the normalised address, so
 * the same person registering twice finds the same stream. Types only; rules are in `lead.decide.ts`.
 */
import type { Command, Event } from '../shared/event.ts';

export const leadStream = (leadId: string): string => `lead-${leadId}`;

export type InterestRegistered = Event<
  'InterestRegistered',
  { leadId: string; email: string; registeredAt: string }
>;
export type LeadEvent = InterestRegistered;

export type RegisterInterest = Command<
  'RegisterInterest',
  { leadId: string; email: string; now: string }
>;
export type LeadCommand = RegisterInterest;

export type Lead =
  | { exists: false }
  | { exists: true; leadId: string; email: string; registeredAt: string };
