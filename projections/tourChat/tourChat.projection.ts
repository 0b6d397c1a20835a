import type { Insertable } from 'kysely';
import type { MessagePosted } from '../../domain/tours/tour.types.ts';
import { defineProjection } from '../projection.ts';
import type { ChatMessagesViewTable } from './tourChat.tables.ts';

/** Tour chat messages. */
export const tourChatProjection = defineProjection({
  name: 'tourChat',
  version: 1,
  tables: ['chat_messages_view'],
  handles: ['MessagePosted'],
  async apply(trx, events) {
    // One statement per page; a message delivered twice keeps its first row.
    const rows = new Map<string, Insertable<ChatMessagesViewTable>>();
    for (const { data: d } of events as unknown as MessagePosted[]) {
      if (!rows.has(d.messageId)) {
        rows.set(d.messageId, {
          id: d.messageId,
          tour_id: d.tourId,
          user_id: d.userId,
          user_name: d.userName,
          organization_id: d.organizationId,
          text: d.text,
          posted_at: d.postedAt,
        });
      }
    }
    const list = [...rows.values()];
    for (let start = 0; start < list.length; start += 1000) {
      await trx
        .insertInto('chat_messages_view')
        .values(list.slice(start, start + 1000))
        .onConflict((conflict) => conflict.column('id').doNothing())
        .execute();
    }
  },
});
