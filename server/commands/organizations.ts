/** The commands of an organization (stream `organization-<id>`): this module is its only writer. */
import {
  organizationStream,
  type Organization,
  type OrganizationEvent,
} from '../../domain/organizations/organization.ts';
import {
  organizationDecider,
  type OrganizationCommand,
} from '../../domain/organizations/organization.decide.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import { metadataFor, type Cause } from './caller.ts';

export function createOrganizationCommands(store: EventStore) {
  return {
    organization: (command: OrganizationCommand, cause: Cause, now: string) =>
      handleCommand<Organization, OrganizationCommand, OrganizationEvent>(
        store,
        organizationStream(command.data.organizationId as string),
        organizationDecider,
        command,
        metadataFor(cause, now),
      ),

    async loadOrganization(organizationId: string) {
      const { events } = await store.readStream<OrganizationEvent>(
        organizationStream(organizationId),
      );
      const state = events.reduce<Organization>(
        organizationDecider.evolve,
        organizationDecider.initialState(),
      );
      return state.registered ? state : null;
    },
  };
}
export type OrganizationCommands = ReturnType<typeof createOrganizationCommands>;
