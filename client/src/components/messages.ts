import { useTranslation } from 'react-i18next';
import { messageOfCode } from '../../../domain/contracts/errorCodes.ts';
import {
  type MessageCode,
  type MessageKey,
  messageKeys,
  uncodedMessages,
} from '../i18n/messageKeys.ts';

/** The English text of each code of the table, the way back from a text to its code. */
const codeByText = new Map<string, MessageCode>();
for (const code of Object.keys(messageKeys) as MessageCode[]) {
  const text = messageOfCode(code) ?? uncodedMessages[code as keyof typeof uncodedMessages];
  if (text !== undefined && !codeByText.has(text)) codeByText.set(text, code);
}

/** A message to show: a text (the form's own check, a confirmation), or an error with its code. */
export type MessageInput = string | { message: string; code?: string };

/**
 * The code of a message: the one it came with, else the one of its English text (the client's own
 * checks use the catalog's texts, and the confirmations carry no code).
 */
export function messageCodeOf(input: MessageInput): MessageCode | undefined {
  const { message, code } = typeof input === 'string' ? { message: input, code: undefined } : input;
  if (code !== undefined && Object.hasOwn(messageKeys, code)) return code as MessageCode;
  return codeByText.get(message);
}

/** The translation key of a message (messageKeys, by its code), if the client translates it. */
export function messageKeyOf(input: MessageInput): MessageKey | undefined {
  const code = messageCodeOf(input);
  return code && messageKeys[code];
}

/** Translates a known message; any other text (a server's own reason) is shown as it came. */
export function useMessageText(): (message: MessageInput) => string {
  const { t } = useTranslation();
  return (input) => {
    const key = messageKeyOf(input);
    return key ? (t(key as never) as string) : typeof input === 'string' ? input : input.message;
  };
}

/** The form field a message belongs to where the server names it only in its message (a 409). */
export function fieldOfMessage(message: MessageInput): string | null {
  switch (messageCodeOf(message)) {
    case 'email_already_registered':
      return 'email';
    case 'username_already_taken':
      return 'username';
    case 'confirmation_code_invalid':
    case 'confirmation_code_expired':
      return 'code';
    default:
      return null;
  }
}
