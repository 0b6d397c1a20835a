/**
 * The raw event feed: `GET /api/events/stream?from=<transactionId:globalPosition>` opened as a
 * WebSocket (Superadmins). It sends the log after `from`, then every new event, one JSON text
 * message per event; a plain GET answers 426.
 */
import { z } from 'zod';
import { errorAnswers, guardedErrors } from './common.ts';

export const StreamQuery = z.object({
  from: z
    .string()
    .regex(
      /^(\d+:\d+)?$/,
      'from is a log position: transactionId:globalPosition, or empty for the start',
    )
    .optional(),
  /** For browsers, which cannot set headers on a WebSocket: the access token. */
  token: z.string().max(4096).optional(),
});

/** One message of the feed; `position` is what `from` takes, so a client that reconnects with it misses nothing. */
export const FeedMessageSchema = z.object({
  position: z.string(),
  streamId: z.string(),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()),
});
export type FeedMessage = z.infer<typeof FeedMessageSchema>;

export const eventsContract = {
  stream: {
    querystring: StreamQuery,
    response: {
      101: FeedMessageSchema.meta({
        description:
          'Switching Protocols: the WebSocket, then one JSON text message of this shape per event',
      }),
      ...guardedErrors,
      ...errorAnswers(400, 426),
    },
  },
};
