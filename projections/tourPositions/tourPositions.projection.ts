import { sql } from 'kysely';
import {
  POSITION_EVENT_TYPES,
  type PositionRecorded,
  type PositionsRecorded,
} from '../../domain/tours/tour.types.ts';
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
    // Each event's positions go as they came (no object per position in between), with the tour, the
    // source and the event's stream revision; the statement unpacks them, numbering each inside its event.
    const batches: { t: string; s: string; r: number; p: unknown[] }[] = [];
    for (const event of events as RecordedEvent[]) {
      if (event.type === 'PositionsRecorded') {
        const { tourId, source, positions } = (event as unknown as RecordedEvent<PositionsRecorded>)
          .data;
        batches.push({ t: tourId, s: source, r: event.streamRevision, p: positions });
      } else if (event.type === 'PositionRecorded') {
        const data = (event as unknown as RecordedEvent<PositionRecorded>).data;
        batches.push({ t: data.tourId, s: data.source, r: event.streamRevision, p: [data] });
      }
    }
    // One statement for up to about 5,000 positions.
    for (let start = 0; start < batches.length; ) {
      let end = start;
      for (
        let taken = 0;
        end < batches.length && (end === start || taken + batches[end]!.p.length <= 5000);
        end++
      )
        taken += batches[end]!.p.length;
      await sql`INSERT INTO tour_positions_view (tour_id, latitude, longitude, speed, heading, accuracy, source, recorded_at, stream_revision, position_index)
        SELECT (e->>'t')::uuid, (p->>'latitude')::float8, (p->>'longitude')::float8, (p->>'speed')::float8, (p->>'heading')::float8,
          (p->>'accuracy')::float8, e->>'s', (p->>'recordedAt')::timestamptz, (e->>'r')::bigint, (n - 1)::int
        FROM jsonb_array_elements(${JSON.stringify(batches.slice(start, end))}::jsonb) AS e
          CROSS JOIN LATERAL jsonb_array_elements(e->'p') WITH ORDINALITY AS x(p, n)
        ON CONFLICT (tour_id, stream_revision, position_index) DO NOTHING`.execute(trx);
      start = end;
    }
  },
});
