import {
  evolveOrganization,
  initialOrganization,
  organizationStream,
  type OrganizationEvent,
} from '../../domain/organizations/organization.ts';
import { evolveUser, initialUser, userStream, type UserEvent } from '../../domain/users/user.ts';
import {
  comparePositions,
  type EventStore,
  type LogPosition,
  type RecordedEvent,
} from '../eventstore/eventStore.ts';

export type NamesAsOf = {
  /** The user's name as of that log position: their stream folded up to it, so a later rename does not show. */
  user(userId: string, position: LogPosition): string | null;
  /** The organization's name as of that log position. */
  organization(organizationId: string, position: LogPosition): string | null;
  /** The organization's name as it stood at that time (a replay `?at=` a moment). */
  organizationAtTime(organizationId: string, at: string): string | null;
};

/**
 * Who acted, as they were then: reads each user's and each organization's own stream once and
 * answers their names as of any point of the log by folding the events up to it. The audit trail
 * names people and companies this way, so renaming a user or an organization never rewrites the
 * past, and a user deleted since keeps the name they had. Null for an id with no stream yet at
 * that point (or none at all).
 */
export async function readNamesAsOf(
  store: EventStore,
  ids: { users: Iterable<string>; organizations: Iterable<string> },
): Promise<NamesAsOf> {
  const userIds = [...new Set(ids.users)];
  const organizationIds = [...new Set(ids.organizations)];
  const [userStreams, organizationStreams] = await Promise.all([
    Promise.all(userIds.map((id) => store.readStream<UserEvent>(userStream(id)))),
    Promise.all(
      organizationIds.map((id) => store.readStream<OrganizationEvent>(organizationStream(id))),
    ),
  ]);
  const users = new Map(userIds.map((id, index) => [id, userStreams[index]!.events]));
  const organizations = new Map(
    organizationIds.map((id, index) => [id, organizationStreams[index]!.events]),
  );

  const userName = (events: RecordedEvent<UserEvent>[]) => {
    const state = events.reduce(evolveUser, initialUser());
    return state.registered ? state.name : null;
  };
  const organizationName = (events: RecordedEvent<OrganizationEvent>[]) => {
    const state = events.reduce(evolveOrganization, initialOrganization());
    return state.registered ? state.name : null;
  };
  const upTo = (position: LogPosition) => (event: RecordedEvent) =>
    comparePositions(event.position, position) <= 0;
  return {
    user: (userId, position) => userName((users.get(userId) ?? []).filter(upTo(position))),
    organization: (organizationId, position) =>
      organizationName((organizations.get(organizationId) ?? []).filter(upTo(position))),
    organizationAtTime: (organizationId, at) =>
      organizationName(
        (organizations.get(organizationId) ?? []).filter((event) => event.metadata.at <= at),
      ),
  };
}
