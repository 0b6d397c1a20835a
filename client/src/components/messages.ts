import { useTranslation } from 'react-i18next';
import { codeOfMessage, type ErrorCode } from '../../../domain/contracts/errorCodes.ts';
import { SOMETHING_WENT_WRONG } from '../api/http.ts';
import type en from '../i18n/en.json';

type MessageKey = keyof typeof en.messages;

/**
 * The server's errors by their stable code (domain/contracts/errorCodes.ts), each with its
 * translation key: a message the server rewords keeps its translation as long as its code stays.
 */
const codeKeys: Partial<Record<ErrorCode, MessageKey>> = {
  internal_error: 'somethingWentWrong',
  name_required: 'nameRequired',
  username_required: 'usernameRequired',
  password_required: 'passwordRequired',
  password_too_short: 'passwordTooShort',
  passwords_must_match: 'passwordsMustMatch',
  passwords_did_not_match: 'passwordsDidNotMatch',
  email_required: 'emailRequired',
  email_format: 'emailFormat',
  phone_required: 'phoneRequired',
  phone_format: 'phoneFormat',
  company_name_required: 'companyName',
  contact_person_required: 'contactPerson',
  company_address_required: 'companyAddress',
  mc_number_required: 'mcNumber',
  dot_number_required: 'dotNumber',
  truck_type_invalid: 'truckType',
  trailer_type_invalid: 'trailerType',
  driver_team_invalid: 'driverTeam',
  count_invalid: 'count',
  insured_amount_required: 'insuredAmount',
  file_required: 'fileRequired',
  file_too_large: 'fileTooLarge',
  unsupported_format: 'unsupportedFormat',
  invalid_credentials: 'invalidCredentials',
  account_blocked: 'accountBlocked',
  old_password_wrong: 'oldPasswordWrong',
  old_password_required: 'oldPasswordRequired',
  driver_has_open_tour: 'driverHasOpenTour',
};

/** The server's confirmations (answers, not errors: they have no code), by their English text. */
const textKeys: Record<string, MessageKey> = {
  [SOMETHING_WENT_WRONG]: 'somethingWentWrong',
  'Account successfully updated': 'accountUpdated',
  'Organization successfully updated': 'organizationUpdated',
  'Carrier profile successfully updated': 'carrierUpdated',
  'Shipper profile successfully updated': 'shipperUpdated',
  'User successfully created': 'userCreated',
  'Organization successfully created': 'organizationCreated',
};

/** A message to show: a text (the form's own check, a confirmation), or an error with its code. */
export type MessageInput = string | { message: string; code?: string };

/**
 * The translation key of a message: by its code (given, or the catalog's for the text: the client's
 * own checks use the catalog's texts), else by its text.
 */
export function messageKeyOf(input: MessageInput): MessageKey | undefined {
  const { message, code } = typeof input === 'string' ? { message: input, code: undefined } : input;
  const known = (code ?? codeOfMessage(message)) as ErrorCode | undefined;
  return (known && codeKeys[known]) || textKeys[message];
}

/** Translates a known message; any other text (a server's own reason) is shown as it came. */
export function useMessageText(): (message: MessageInput) => string {
  const { t } = useTranslation();
  return (input) => {
    const key = messageKeyOf(input);
    return key ? t(`messages.${key}`) : typeof input === 'string' ? input : input.message;
  };
}
