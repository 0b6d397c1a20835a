/**
 * The one table of the messages the client translates, keyed by code: the server's error codes
 * (domain/contracts/errorCodes.ts, sent as `code` beside each message) and, for the texts that carry
 * no code (the server's confirmations and one check of the client's own), a code of the client's
 * below with its English text. Each code names its translation key in the locale files; a message
 * whose code is not here is shown as it came. A pure data table.
 */
import type { CatalogCode } from '../../../domain/contracts/errorCodes.ts';
import { SEARCH_RADIUS_MESSAGE } from '../../../domain/searches/savedSearch.messages.ts';
import type marketplaceTexts from './areas/marketplace/en.json';
import type publicTexts from './areas/public/en.json';
import type en from './en.json';

/** The English texts without a server error code, each with the client's code for it. */
export const uncodedMessages = {
  account_updated: 'Account successfully updated',
  organization_updated: 'Organization successfully updated',
  carrier_profile_updated: 'Carrier profile successfully updated',
  shipper_profile_updated: 'Shipper profile successfully updated',
  user_created: 'User successfully created',
  organization_created: 'Organization successfully created',
  search_radius_invalid: SEARCH_RADIUS_MESSAGE,
  load_created: 'Load created',
  load_updated: 'Load updated',
  load_canceled: 'Load canceled',
  offer_submitted: 'Offer submitted',
  offer_revised: 'Offer revised',
  sign_up_confirmed: 'Sign-up complete. An administrator will activate your account.',
  password_set: 'New password set successfully',
  reset_code_sent: 'If the address is registered, a reset code has been sent to it.',
  signup_code_resent:
    'If a registration with this address is waiting for its code, a new code has been sent to it.',
  user_activated: 'User activated',
  user_blocked: 'User blocked',
  user_updated: 'User successfully updated',
  interest_thanks: 'Thank you! We will be in touch soon.',
} as const;

export type UncodedMessage = keyof typeof uncodedMessages;
export type MessageCode = CatalogCode | UncodedMessage;

/** A translation key of a message, in the locale file area that holds it. */
export type MessageKey =
  | `messages.${keyof typeof en.messages}`
  | `marketplace.messages.${keyof typeof marketplaceTexts.marketplace.messages}`
  | `publicMessages.${keyof typeof publicTexts.publicMessages}`;

/** Each message code with its translation key. */
export const messageKeys: Partial<Record<MessageCode, MessageKey>> = {
  internal_error: 'messages.somethingWentWrong',
  name_required: 'messages.nameRequired',
  username_required: 'messages.usernameRequired',
  password_required: 'messages.passwordRequired',
  password_too_short: 'messages.passwordTooShort',
  passwords_must_match: 'messages.passwordsMustMatch',
  passwords_did_not_match: 'messages.passwordsDidNotMatch',
  email_required: 'messages.emailRequired',
  email_format: 'messages.emailFormat',
  phone_required: 'messages.phoneRequired',
  phone_format: 'messages.phoneFormat',
  company_name_required: 'messages.companyName',
  contact_person_required: 'messages.contactPerson',
  company_address_required: 'messages.companyAddress',
  mc_number_required: 'messages.mcNumber',
  dot_number_required: 'messages.dotNumber',
  truck_type_invalid: 'messages.truckType',
  trailer_type_invalid: 'messages.trailerType',
  driver_team_invalid: 'messages.driverTeam',
  count_invalid: 'messages.count',
  insured_amount_required: 'messages.insuredAmount',
  file_required: 'messages.fileRequired',
  file_too_large: 'messages.fileTooLarge',
  unsupported_format: 'messages.unsupportedFormat',
  invalid_credentials: 'messages.invalidCredentials',
  two_factor_code_invalid: 'messages.twoFactorCodeInvalid',
  two_factor_required: 'messages.twoFactorCodeRequired',
  two_factor_enrolment_required: 'messages.twoFactorEnrolmentRequired',
  account_blocked: 'messages.accountBlocked',
  old_password_wrong: 'messages.oldPasswordWrong',
  old_password_required: 'messages.oldPasswordRequired',
  driver_has_open_tour: 'messages.driverHasOpenTour',
  pickup_start_past: 'marketplace.messages.pickupStartPast',
  pickup_deadline_before_start: 'marketplace.messages.pickupDeadline',
  dropoff_before_pickup: 'marketplace.messages.dropoffBeforePickup',
  dropoff_deadline_before_start: 'marketplace.messages.dropoffDeadline',
  expiration_after_pickup: 'marketplace.messages.expirationAfterPickup',
  expiration_past: 'marketplace.messages.expirationPast',
  date_in_past: 'marketplace.messages.dateInPast',
  date_time_invalid: 'marketplace.messages.dateTimeInvalid',
  timezone_required: 'marketplace.messages.timezoneRequired',
  timezone_invalid: 'marketplace.messages.timezoneInvalid',
  load_equipment_required: 'marketplace.messages.equipmentRequired',
  load_equipment_invalid: 'marketplace.messages.equipmentInvalid',
  load_accessories_required: 'marketplace.messages.accessoriesRequired',
  weight_required: 'marketplace.messages.weightRequired',
  book_now_price_invalid: 'marketplace.messages.bookNowPriceInvalid',
  load_already_booked: 'marketplace.messages.loadAlreadyBooked',
  load_without_book_now: 'marketplace.messages.loadWithoutBookNow',
  commodity_required: 'marketplace.messages.commodityRequired',
  reference_number_required: 'marketplace.messages.referenceRequired',
  location_required: 'marketplace.messages.locationRequired',
  location_not_picked: 'marketplace.messages.locationNotPicked',
  facility_name_required: 'marketplace.messages.facilityNameRequired',
  facility_name_too_short: 'marketplace.messages.facilityNameTooShort',
  location_order_invalid: 'marketplace.messages.locationOrder',
  message_required: 'marketplace.messages.cancelMessageRequired',
  search_name_required: 'marketplace.messages.searchNameRequired',
  search_criteria_required: 'marketplace.messages.searchCriteria',
  price_required: 'marketplace.messages.priceRequired',
  accept_terms_required: 'publicMessages.acceptTerms',
  pin_required: 'publicMessages.pin',
  reset_code_required: 'publicMessages.resetCodeRequired',
  role_required: 'publicMessages.roleRequired',
  organization_required: 'publicMessages.organizationRequired',
  organization_type_required: 'publicMessages.organizationType',
  email_already_registered: 'publicMessages.emailRegistered',
  registration_pending: 'publicMessages.registrationPending',
  username_already_taken: 'publicMessages.usernameTaken',
  confirmation_code_invalid: 'publicMessages.invalidCode',
  confirmation_code_expired: 'publicMessages.codeExpired',
  email_already_confirmed: 'publicMessages.alreadyConfirmed',
  reset_code_invalid: 'publicMessages.invalidResetCode',
  organization_not_active: 'publicMessages.organizationNotActive',
  organization_blocked: 'publicMessages.organizationBlockedSignIn',
  email_not_confirmed: 'publicMessages.emailNotConfirmed',
  cannot_block_self: 'publicMessages.cannotBlockSelf',
  account_updated: 'messages.accountUpdated',
  organization_updated: 'messages.organizationUpdated',
  carrier_profile_updated: 'messages.carrierUpdated',
  shipper_profile_updated: 'messages.shipperUpdated',
  user_created: 'messages.userCreated',
  organization_created: 'messages.organizationCreated',
  search_radius_invalid: 'marketplace.messages.searchRadius',
  load_created: 'marketplace.messages.loadCreated',
  load_updated: 'marketplace.messages.loadUpdated',
  load_canceled: 'marketplace.messages.loadCanceled',
  offer_submitted: 'marketplace.messages.offerSubmitted',
  offer_revised: 'marketplace.messages.offerRevised',
  sign_up_confirmed: 'publicMessages.signUpConfirmed',
  password_set: 'publicMessages.passwordSet',
  reset_code_sent: 'publicMessages.resetSent',
  signup_code_resent: 'publicMessages.codeResent',
  user_activated: 'publicMessages.userActivated',
  user_blocked: 'publicMessages.userBlocked',
  user_updated: 'publicMessages.userUpdated',
  interest_thanks: 'publicMessages.interestThanks',
  interest_contact_required: 'publicMessages.interestContactRequired',
  interest_contact_too_long: 'publicMessages.interestContactTooLong',
};
