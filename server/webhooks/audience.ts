/**
 * What a webhook says of a log event, and to whom: the same messages and rooms the sockets get
 * (server/realtime/notifier.ts, rooms.ts), turned into organizations. An organization hears of an
 * event when one of its users could be in a room the event is sent to:
 *
 * - `org:<id>` and `org:<id>:<code>`: that organization;
 * - `tour:<id>`: the tour's parties (the shipper and the carrier; the driver belongs to the carrier);
 * - `user:<id>`: the user's organization;
 * - `marketplace`: every Active carrier organization.
 *
 * A load's shipper also hears of its own load's changes: its users see the load in their own list,
 * the socket telling them nothing only because their screen refreshes itself.
 */
import type { Kysely } from 'kysely';
import { GenericStatus } from '../../domain/catalog.ts';
import type { WebhookEventType } from '../../domain/contracts/webhooks.contract.ts';
import { tourPushRows } from '../../projections/marketplace/pushRows.queries.ts';
import type { DB } from '../../storage/schema.ts';
import type { RecordedEvent } from '../eventstore/eventStore.ts';
import { livePushes, rowPushes, workOf, type Push } from '../realtime/notifier.ts';
import { MARKETPLACE_ROOM } from '../realtime/rooms.ts';

/** The event a test call sends; no log event has it. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** The read models the audience is read from: the reactor waits for them to reach the event. */
export const AUDIENCE_READ_MODELS = ['marketplace', 'organizations', 'users'] as const;

export type WebhookEvent = {
  id: string;
  type: WebhookEventType;
  occurredAt: string;
  data: unknown;
  organizations: string[];
};

const typeOf = (event: RecordedEvent, push: Push): WebhookEventType | null => {
  switch (push.event) {
    case 'load:posted':
      return 'load.posted';
    case 'load:updated':
      return event.type === 'LoadUpdated' ? 'load.updated' : 'load.status';
    case 'proposal:new':
      return 'proposal.created';
    case 'proposal:updated':
      return 'proposal.updated';
    case 'tour:status':
      return 'tour.status';
    case 'tour:event':
      if (event.type === 'PickupHeld') return 'tour.pickup_held';
      if (event.type === 'PickupReleased') return 'tour.pickup_released';
      return 'tour.event';
    case 'tour:position':
      return 'tour.position';
    case 'chat:message':
      return 'chat.message';
    case 'carrier:authority':
      return 'carrier.authority_changed';
    case 'accessorial.claimed':
    case 'accessorial.approved':
    case 'accessorial.disputed':
    case 'accessorial.answered':
    case 'accessorial.settled':
    case 'invoice.submitted':
    case 'invoice.approved':
    case 'invoice.disputed':
    case 'invoice.scheduled':
    case 'invoice.paid':
    case 'invoice.received':
      return push.event;
    default:
      return null;
  }
};

/** Caches what never changes for a tour: its two parties. */
export type AudienceCache = { tourParties: Map<string, string[]> };
export const newAudienceCache = (): AudienceCache => ({ tourParties: new Map() });

/**
 * The webhook event of a log event, with the organizations among `candidates` (those with
 * endpoints) that may hear of it; null when the sockets hear nothing of it.
 */
export async function webhookEventOf(
  db: Kysely<DB>,
  event: RecordedEvent,
  candidates: ReadonlySet<string>,
  cache: AudienceCache,
): Promise<WebhookEvent | null> {
  // A batch of positions is one webhook event carrying the newest of them.
  const live = livePushes(event).at(-1);
  const work = live ? null : workOf([event]);
  const pushes = live ? [live] : work ? await rowPushes(db, work) : [];
  if (pushes.length === 0) return null;
  const first = pushes[0]!;
  const type = typeOf(event, first);
  if (!type) return null;
  const organizations = new Set<string>();
  for (const push of pushes) {
    const left = new Set<string>();
    for (const room of push.except ?? [])
      for (const id of await organizationsOfRoom(db, room, candidates, cache)) left.add(id);
    for (const room of push.rooms)
      for (const id of await organizationsOfRoom(db, room, candidates, cache))
        if (!left.has(id)) organizations.add(id);
  }
  if (type.startsWith('load.')) {
    const owner = (first.payload as { id?: string }).id;
    if (owner) {
      const load = await db
        .selectFrom('loads_view')
        .select('shipper_organization_id')
        .where('id', '=', owner)
        .executeTakeFirst();
      if (load) organizations.add(load.shipper_organization_id);
    }
  }
  return {
    id: event.id,
    type,
    occurredAt: event.metadata.at,
    data: first.payload,
    organizations: [...organizations].filter((id) => candidates.has(id)),
  };
}

async function organizationsOfRoom(
  db: Kysely<DB>,
  room: string,
  candidates: ReadonlySet<string>,
  cache: AudienceCache,
): Promise<string[]> {
  const [kind, id] = room.split(':');
  if (kind === 'org' && id) return [id];
  if (kind === 'tour' && id) {
    let parties = cache.tourParties.get(id);
    if (!parties) {
      const [row] = await tourPushRows(db, [id]);
      parties = row ? [row.shipperOrganizationId, row.carrierOrganizationId] : [];
      if (row) {
        if (cache.tourParties.size > 10_000) cache.tourParties.clear();
        cache.tourParties.set(id, parties);
      }
    }
    return parties;
  }
  if (kind === 'user' && id) {
    const user = await db
      .selectFrom('users_view')
      .select('organization_id')
      .where('id', '=', id)
      .executeTakeFirst();
    return user?.organization_id ? [user.organization_id] : [];
  }
  if (room === MARKETPLACE_ROOM && candidates.size > 0) {
    const rows = await db
      .selectFrom('organizations_view')
      .select('id')
      .where('id', 'in', [...candidates])
      .where('type', '=', 'Carrier')
      .where('status', '=', GenericStatus.Active)
      .execute();
    return rows.map((row) => row.id);
  }
  return [];
}
