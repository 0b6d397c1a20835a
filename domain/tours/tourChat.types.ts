/** The tour's chat (stream `tourchat-<tourId>`): the one event and the one command. */
import type { Command, Event } from '../shared/event.ts';

export type MessagePosted = Event<
  'MessagePosted',
  {
    tourId: string;
    messageId: string;
    userId: string;
    userName: string;
    organizationId: string | null;
    text: string;
    postedAt: string;
  }
>;
export type PostMessage = Command<
  'PostMessage',
  {
    tourId: string;
    messageId: string;
    userId: string;
    userName: string;
    organizationId: string | null;
    text: string;
    now: string;
  }
>;
