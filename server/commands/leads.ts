/**
 * The commands of a lead (stream `lead-<id>`, one per address): a visitor of the landing page
 * leaves an address. This module is the only writer of these streams.
 */
import { leadDecider, leadIdFor } from '../../domain/leads/lead.decide.ts';
import {
  leadStream,
  type Lead,
  type LeadCommand,
  type LeadEvent,
} from '../../domain/leads/lead.types.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore, LogPosition } from '../eventstore/eventStore.ts';
import { metadataFor } from './caller.ts';

export type RegisteredInterest = {
  leadId: string;
  email: string;
  isNew: boolean;
  position: LogPosition | null;
};

/** A visitor is not signed in: the request is the only cause. */
export async function registerInterest(
  store: EventStore,
  email: string,
  request: { requestId: string },
  now: string,
): Promise<RegisteredInterest> {
  const leadId = leadIdFor(email);
  const result = await handleCommand<Lead, LeadCommand, LeadEvent>(
    store,
    leadStream(leadId),
    leadDecider,
    {
      type: 'RegisterInterest',
      data: { leadId, email, now },
    },
    metadataFor({ userId: null, organizationId: null }, request.requestId, now),
  );
  const lead = result.state.exists ? result.state : null;
  return {
    leadId,
    email: lead?.email ?? email,
    isNew: result.events.length > 0,
    position: result.position,
  };
}
