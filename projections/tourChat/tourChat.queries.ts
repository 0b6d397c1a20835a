import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

/** A tour's chat, oldest first, at most `limit` messages. */
export const chatMessagesOf = (db: Kysely<DB>, tourId: string, limit: number) =>
  db
    .selectFrom('chat_messages_view')
    .selectAll()
    .where('tour_id', '=', tourId)
    .orderBy('posted_at')
    .orderBy('id')
    .limit(limit)
    .execute();
