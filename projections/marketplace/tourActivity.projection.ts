import { sql } from 'kysely';
import type { MessagePosted, PositionRecorded } from '../../domain/tours/tour.types.ts';
import type { RecordedEvent } from '../../storage/eventStore.ts';
import { defineProjection } from '../projection.ts';

/**
 * Truck positions: the trail and the last position of each tour. Its own projection because
 * positions are the busiest stream; a page of them is written in one statement.
 */
export const tourPositionsProjection = defineProjection({
  name: 'tourPositions',
  // 2: rows carry their stream revision, so a page delivered again adds nothing.
  version: 2,
  tables: ['tour_positions_view'],
  handles: ['PositionRecorded'],
  async apply(trx, events) {
    const rows = (events as unknown as RecordedEvent<PositionRecorded>[]).map(({ data: d, streamRevision }) => ({
      tour_id: d.tourId, latitude: d.latitude, longitude: d.longitude, speed: d.speed, heading: d.heading, accuracy: d.accuracy,
      source: d.source, recorded_at: d.recordedAt, stream_revision: streamRevision,
    }));
    for (let start = 0; start < rows.length; start += 500) {
      await trx.insertInto('tour_positions_view').values(rows.slice(start, start + 500))
        .onConflict((conflict) => conflict.columns(['tour_id', 'stream_revision']).doNothing()).execute();
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
    for (const { data: d } of events as unknown as MessagePosted[]) {
      await sql`INSERT INTO chat_messages_view (id, tour_id, user_id, user_name, organization_id, text, posted_at)
        VALUES (${d.messageId}, ${d.tourId}, ${d.userId}, ${d.userName}, ${d.organizationId}, ${d.text}, ${d.postedAt})
        ON CONFLICT (id) DO NOTHING`.execute(trx);
    }
  },
});
