/** The tour's chat: the message a party posts and the messages it reads. */
import { z } from 'zod';

export const ChatBody = z.object({
  message: z
    .string({ error: 'Please enter a message' })
    .max(2000, { error: 'A message can have at most 2000 characters' }),
});

export const ChatMessageSchema = z.object({
  id: z.string(),
  user: z.object({ id: z.string(), name: z.string() }),
  organizationId: z.string().nullable(),
  text: z.string(),
  at: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;
