import { useTranslation } from 'react-i18next';
import {
  ACCEPT_TERMS_MESSAGE,
  ORGANIZATION_ID_MESSAGE,
  ORGANIZATION_TYPE_MESSAGE,
  PIN_MESSAGE,
  RESET_CODE_REQUIRED_MESSAGE,
  ROLE_REQUIRED_MESSAGE,
} from '../../../../domain/schemas/messages.ts';
import {
  EMAIL_ALREADY_REGISTERED,
  USERNAME_ALREADY_TAKEN,
} from '../../../../domain/uniqueKeys/uniqueKey.ts';
import {
  CONFIRMATION_CODE_EXPIRED,
  INVALID_CONFIRMATION_CODE,
} from '../../../../domain/users/user.decide.ts';
import { useMessageText } from '../../components/messages.ts';
import type publicTexts from '../../i18n/areas/public/en.json';

type MessageKey = keyof typeof publicTexts.publicMessages;

/**
 * The public and administration screens' messages that the shared table (components/messages.ts)
 * does not know yet: the specification's and the server's English texts, each with its key.
 */
const keys: Record<string, MessageKey> = {
  [ACCEPT_TERMS_MESSAGE]: 'acceptTerms',
  [PIN_MESSAGE]: 'pin',
  [RESET_CODE_REQUIRED_MESSAGE]: 'resetCodeRequired',
  [ROLE_REQUIRED_MESSAGE]: 'roleRequired',
  [ORGANIZATION_ID_MESSAGE]: 'organizationRequired',
  [ORGANIZATION_TYPE_MESSAGE]: 'organizationType',
  [EMAIL_ALREADY_REGISTERED]: 'emailRegistered',
  [USERNAME_ALREADY_TAKEN]: 'usernameTaken',
  [INVALID_CONFIRMATION_CODE]: 'invalidCode',
  [CONFIRMATION_CODE_EXPIRED]: 'codeExpired',
  'Email is already confirmed': 'alreadyConfirmed',
  'Sign-up complete. An administrator will activate your account.': 'signUpConfirmed',
  'Invalid or expired reset code': 'invalidResetCode',
  'New password set successfully': 'passwordSet',
  'If the address is registered, a reset code has been sent to it.': 'resetSent',
  'User activated': 'userActivated',
  'User blocked': 'userBlocked',
  'Your organization is not active yet': 'organizationNotActive',
  'Your organization is blocked': 'organizationBlockedSignIn',
  'Please confirm your e-mail address first: enter the code we sent you': 'emailNotConfirmed',
  'User successfully updated': 'userUpdated',
  'You cannot block yourself': 'cannotBlockSelf',
  'Thank you! We will be in touch soon.': 'interestThanks',
};

/** Translates a known message (these, then the shared ones); any other text is shown as it came. */
export function usePublicMessage(): (message: string) => string {
  const { t } = useTranslation();
  const shared = useMessageText();
  return (message) => {
    const key = keys[message];
    return key ? t(`publicMessages.${key}`) : shared(message);
  };
}

/** Where the server names a field only in its message (a 409 on a unique key). */
export function fieldOfMessage(message: string): string | null {
  if (message === EMAIL_ALREADY_REGISTERED) return 'email';
  if (message === USERNAME_ALREADY_TAKEN) return 'username';
  if (message === INVALID_CONFIRMATION_CODE || message === CONFIRMATION_CODE_EXPIRED) return 'code';
  return null;
}
