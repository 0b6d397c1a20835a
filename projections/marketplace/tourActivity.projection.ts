import { sql } from 'kysely';
import { POSITION_EVENT_TYPES, positionsIn, type MessagePosted } from '../../domain/tours/tour.types.ts';
import type { RecordedEvent } from '../../storage/eventStore.ts';
import { defineProjection } from '../projection.ts';

/**
 * Truck positions: the trail and the last position of each tour. Its own projection because
 * positions are the busiest stream; a page of them is written in one statement.
 */
export const tourPositionsProjection = defineProjection({
  name: 'tourPositions',
  // 2: rows carry their stream revision, so a page delivered again adds nothing.
  // 3: a batch is one event; rows carry their place inside it too.
  version: 3,
  tables: ['tour_positions_view'],
  handles: [...POSITION_EVENT_TYPES],
  async apply(trx, events) {
    const rows = (events as RecordedEvent[]).flatMap((event) => positionsIn(event).map((d) => ({
      tour_id: d.tourId, latitude: d.latitude, longitude: d.longitude, speed: d.speed, heading: d.heading, accuracy: d.accuracy,
      source: d.source, recorded_at: d.recordedAt, stream_revision: event.streamRevision, position_index: d.index,
    })));
    // The page's rows as one JSON parameter: one statement whatever the page's size, typed by the table's own row type.
    for (let start = 0; start < rows.length; start += 5000) {
      await sql`INSERT INTO tour_positions_view (tour_id, latitude, longitude, speed, heading, accuracy, source, recorded_at, stream_revision, position_index)
        SELECT tour_id, latitude, longitude, speed, heading, accuracy, source, recorded_at, stream_revision, position_index
        FROM jsonb_populate_recordset(NULL::tour_positions_view, ${JSON.stringify(rows.slice(start, start + 5000))}::jsonb)
        ON CONFLICT (tour_id, stream_revision, position_index) DO NOTHING`.execute(trx);
    }
  },
});

/** Tour chat messages. */
export const tourChatProjection = defineProjection({
  name: 'tourChat',
  version: 1,
  tables: ['chat_messages_view'],
  handles: ['MessagePosted'],
  async apply(trx, events) {
    // One statement per page; a message delivered twice keeps its first row.
    const rows = new Map<string, { id: string; tour_id: string; user_id: string; user_name: string; organization_id: string | null; text: string; posted_at: string }>();
    for (const { data: d } of events as unknown as MessagePosted[]) {
      if (!rows.has(d.messageId)) {
        rows.set(d.messageId, { id: d.messageId, tour_id: d.tourId, user_id: d.userId, user_name: d.userName, organization_id: d.organizationId, text: d.text, posted_at: d.postedAt });
      }
    }
    const list = [...rows.values()];
    for (let start = 0; start < list.length; start += 1000) {
      await trx.insertInto('chat_messages_view').values(list.slice(start, start + 1000)).onConflict((conflict) => conflict.column('id').doNothing()).execute();
    }
  },
});
