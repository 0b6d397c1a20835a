import type { Selectable } from 'kysely';
import type { Timestamp } from '../../storage/columns.ts';

/** `chat_messages_view` (migration 2026_11_22_1200_marketplace_read_models): a tour's chat, one row per message. */
export type ChatMessagesViewTable = {
  id: string;
  tour_id: string;
  user_id: string;
  user_name: string;
  organization_id: string | null;
  text: string;
  posted_at: Timestamp;
};

export type TourChatTables = { chat_messages_view: ChatMessagesViewTable };

export type ChatMessageRow = Selectable<ChatMessagesViewTable>;
