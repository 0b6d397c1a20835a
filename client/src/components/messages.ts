import { useTranslation } from 'react-i18next';
import * as schemas from '../../../domain/schemas/messages.ts';
import { SOMETHING_WENT_WRONG } from '../api/http.ts';
import type en from '../i18n/en.json';

type MessageKey = keyof typeof en.messages;

/**
 * The specification's English messages (domain/schemas, section 5 and 8) and the server's usual
 * answers, each with its translation key: shown in the user's language, and as sent when unknown.
 */
const keys: Record<string, MessageKey> = {
  [SOMETHING_WENT_WRONG]: 'somethingWentWrong',
  [schemas.NAME_REQUIRED_MESSAGE]: 'nameRequired',
  [schemas.USERNAME_REQUIRED_MESSAGE]: 'usernameRequired',
  [schemas.PASSWORD_REQUIRED_MESSAGE]: 'passwordRequired',
  [schemas.PASSWORD_TOO_SHORT_MESSAGE]: 'passwordTooShort',
  [schemas.PASSWORDS_MUST_MATCH_MESSAGE]: 'passwordsMustMatch',
  [schemas.PASSWORDS_DID_NOT_MATCH_MESSAGE]: 'passwordsDidNotMatch',
  [schemas.EMAIL_REQUIRED_MESSAGE]: 'emailRequired',
  [schemas.EMAIL_FORMAT_MESSAGE]: 'emailFormat',
  [schemas.PHONE_REQUIRED_MESSAGE]: 'phoneRequired',
  [schemas.PHONE_FORMAT_MESSAGE]: 'phoneFormat',
  [schemas.COMPANY_NAME_MESSAGE]: 'companyName',
  [schemas.CONTACT_PERSON_MESSAGE]: 'contactPerson',
  [schemas.COMPANY_ADDRESS_MESSAGE]: 'companyAddress',
  [schemas.MC_NUMBER_MESSAGE]: 'mcNumber',
  [schemas.DOT_NUMBER_MESSAGE]: 'dotNumber',
  [schemas.TRUCK_TYPE_MESSAGE]: 'truckType',
  [schemas.TRAILER_TYPE_MESSAGE]: 'trailerType',
  [schemas.DRIVER_TEAM_MESSAGE]: 'driverTeam',
  [schemas.COUNT_MESSAGE]: 'count',
  [schemas.INSURED_AMOUNT_MESSAGE]: 'insuredAmount',
  [schemas.FILE_REQUIRED_MESSAGE]: 'fileRequired',
  [schemas.FILE_TOO_LARGE_MESSAGE]: 'fileTooLarge',
  [schemas.UNSUPPORTED_FORMAT_MESSAGE]: 'unsupportedFormat',
  'Invalid email or password': 'invalidCredentials',
  'Your account is blocked. Please contact support.': 'accountBlocked',
  'Current password is incorrect': 'oldPasswordWrong',
  'Please enter your current password': 'oldPasswordRequired',
  'Account successfully updated': 'accountUpdated',
  'Organization successfully updated': 'organizationUpdated',
  'Carrier profile successfully updated': 'carrierUpdated',
  'Shipper profile successfully updated': 'shipperUpdated',
  'User successfully created': 'userCreated',
  'Organization successfully created': 'organizationCreated',
};

/** Translates a known message; any other text (a server's own reason) is shown as it came. */
export function useMessageText(): (message: string) => string {
  const { t } = useTranslation();
  return (message) => {
    const key = keys[message];
    return key ? t(`messages.${key}`) : message;
  };
}
