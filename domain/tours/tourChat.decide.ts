/**
 * The tour chat (stream `tourchat-<tourId>`): the parties of a tour post short messages. Who may post
 * (a party of the tour) is the handler's check, as it is for reading; this decider keeps the text
 * rules and counts the messages.
 */
import { ValidationError } from '../shared/errors.ts';
import { assertNever, type Decider } from '../shared/event.ts';
import type { MessagePosted, PostMessage } from './tour.types.ts';

/** Counted in characters (code points), so an emoji counts once. */
export const CHAT_MESSAGE_MAX_LENGTH = 2000;

export type TourChat = { messageCount: number };
export type TourChatCommand = PostMessage;
export type TourChatEvent = MessagePosted;

export const initialTourChat = (): TourChat => ({ messageCount: 0 });

export const evolveTourChat = (state: TourChat, event: TourChatEvent): TourChat => {
  switch (event.type) {
    case 'MessagePosted':
      return { messageCount: state.messageCount + 1 };
    default:
      return assertNever(event.type);
  }
};

export const decideTourChat = (command: TourChatCommand, _state: TourChat): TourChatEvent[] => {
  switch (command.type) {
    case 'PostMessage':
      return postMessage(command);
    default:
      return assertNever(command.type);
  }
};

export const tourChatDecider: Decider<TourChat, TourChatCommand, TourChatEvent> = {
  initialState: initialTourChat,
  evolve: evolveTourChat,
  decide: decideTourChat,
};

const postMessage = ({ data }: PostMessage): TourChatEvent[] => {
  const text = data.text.trim();
  if (text === '') throw ValidationError.field('message', 'Please enter a message');
  if ([...text].length > CHAT_MESSAGE_MAX_LENGTH)
    throw ValidationError.field(
      'message',
      `A message can have at most ${CHAT_MESSAGE_MAX_LENGTH} characters`,
    );
  const { tourId, messageId, userId, userName, organizationId, now } = data;
  return [
    {
      type: 'MessagePosted',
      data: { tourId, messageId, userId, userName, organizationId, text, postedAt: now },
    },
  ];
};
