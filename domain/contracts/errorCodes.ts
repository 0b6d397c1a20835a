/**
 * The stable codes of the errors a client shows, each with the English text the server sends today.
 * A client translates by `code` (the text may be reworded, the code stays); an error whose text is
 * not here carries the generic code of its status (`not_found`, `conflict`, ...). Free of zod and of
 * I/O: the browser's message tables import it.
 */
import * as m from '../schemas/messages.ts';

export const errorMessages = {
  // Generic answers of the server
  internal_error: 'Something went wrong!',
  service_unavailable: 'The service is temporarily unavailable. Please try again shortly.',
  // Signing in and sessions
  sign_in_required: 'Please sign in',
  token_not_valid: 'Token not valid',
  session_expired: 'Your session has expired. Please sign in again.',
  session_ended: 'Your session has ended. Please sign in again.',
  invalid_credentials: 'Invalid email or password',
  account_blocked: 'Your account is blocked. Please contact support.',
  email_not_confirmed: 'Please confirm your e-mail address first: enter the code we sent you',
  organization_not_active: 'Your organization is not active yet',
  organization_not_approved:
    'Your organization is not active yet: a Superadmin must approve it first',
  organization_blocked: 'Your organization is blocked',
  two_factor_required: 'Enter the code from your authenticator app, or a recovery code',
  two_factor_code_invalid: 'The code is not valid',
  two_factor_enrolment_required: 'Set up two-factor sign-in first',
  two_factor_already_on: 'Two-factor sign-in is already on',
  two_factor_off: 'Two-factor sign-in is not on',
  two_factor_not_started: 'Start the two-factor setup first',
  no_organization: 'You do not belong to an organization',
  // Users and accounts
  name_required: m.NAME_REQUIRED_MESSAGE,
  username_required: m.USERNAME_REQUIRED_MESSAGE,
  password_required: m.PASSWORD_REQUIRED_MESSAGE,
  password_too_short: m.PASSWORD_TOO_SHORT_MESSAGE,
  passwords_must_match: m.PASSWORDS_MUST_MATCH_MESSAGE,
  passwords_did_not_match: m.PASSWORDS_DID_NOT_MATCH_MESSAGE,
  role_required: m.ROLE_REQUIRED_MESSAGE,
  role_invalid: 'Please select a valid role',
  organization_required: m.ORGANIZATION_ID_MESSAGE,
  reset_code_required: m.RESET_CODE_REQUIRED_MESSAGE,
  reset_code_invalid: 'Invalid or expired reset code',
  confirmation_code_invalid: 'Invalid confirmation code',
  confirmation_code_expired: 'Code expired, please register again',
  email_already_confirmed: 'Email is already confirmed',
  email_already_registered: 'Email already registered',
  registration_pending: 'Registration already started, please enter the security code',
  username_already_taken: 'Username already taken',
  old_password_required: 'Please enter your current password',
  old_password_wrong: 'Current password is incorrect',
  cannot_block_self: 'You cannot block yourself',
  user_not_found: 'User not found',
  user_already_active: 'User is already Active',
  user_already_blocked: 'User is already Blocked',
  driver_not_found: 'Driver not found',
  driver_not_active: 'This driver is not active',
  driver_has_open_tour: 'The driver has an open tour and cannot be deleted',
  // Fields
  email_required: m.EMAIL_REQUIRED_MESSAGE,
  email_format: m.EMAIL_FORMAT_MESSAGE,
  phone_required: m.PHONE_REQUIRED_MESSAGE,
  phone_format: m.PHONE_FORMAT_MESSAGE,
  pin_required: m.PIN_MESSAGE,
  // Organizations and profiles
  company_name_required: m.COMPANY_NAME_MESSAGE,
  contact_person_required: m.CONTACT_PERSON_MESSAGE,
  company_address_required: m.COMPANY_ADDRESS_MESSAGE,
  organization_type_required: m.ORGANIZATION_TYPE_MESSAGE,
  organization_not_found: 'Organization not found',
  organization_already_active: 'Organization is already Active',
  organization_already_blocked: 'Organization is already Blocked',
  mc_number_required: m.MC_NUMBER_MESSAGE,
  dot_number_required: m.DOT_NUMBER_MESSAGE,
  truck_type_invalid: m.TRUCK_TYPE_MESSAGE,
  trailer_type_invalid: m.TRAILER_TYPE_MESSAGE,
  driver_team_invalid: m.DRIVER_TEAM_MESSAGE,
  count_invalid: m.COUNT_MESSAGE,
  insured_amount_required: m.INSURED_AMOUNT_MESSAGE,
  accept_terms_required: m.ACCEPT_TERMS_MESSAGE,
  // Files and multipart bodies
  file_required: m.FILE_REQUIRED_MESSAGE,
  file_too_large: m.FILE_TOO_LARGE_MESSAGE,
  unsupported_format: m.UNSUPPORTED_FORMAT_MESSAGE,
  file_not_found: 'File not found',
  multipart_required: 'The request must be multipart/form-data',
  multipart_unreadable: 'The multipart body could not be read',
  multipart_data_invalid: 'The data field must be valid JSON',
  multipart_unexpected_file: 'Unexpected file',
  multipart_field_repeated: 'This field may be sent only once',
  multipart_too_many_parts: 'Too many parts in the request',
  multipart_field_too_large: 'Field too large',
  body_too_large: 'The request body is too large',
  // Loads
  load_not_found: 'Load not found',
  pickup_start_past: m.PICKUP_START_PAST_MESSAGE,
  pickup_deadline_before_start: m.PICKUP_DEADLINE_MESSAGE,
  dropoff_before_pickup: m.DROPOFF_BEFORE_PICKUP_MESSAGE,
  dropoff_deadline_before_start: m.DROPOFF_DEADLINE_MESSAGE,
  expiration_after_pickup: m.EXPIRATION_AFTER_PICKUP_MESSAGE,
  expiration_past: m.EXPIRATION_PAST_MESSAGE,
  date_in_past: m.DATE_IN_PAST_MESSAGE,
  date_time_invalid: m.DATE_TIME_INVALID_MESSAGE,
  timezone_required: m.TIMEZONE_REQUIRED_MESSAGE,
  timezone_invalid: m.TIMEZONE_INVALID_MESSAGE,
  load_equipment_required: m.LOAD_EQUIPMENT_MESSAGE,
  load_equipment_invalid: m.LOAD_EQUIPMENT_INVALID_MESSAGE,
  load_accessories_required: m.LOAD_ACCESSORIES_MESSAGE,
  load_accessory_invalid: m.LOAD_ACCESSORY_INVALID_MESSAGE,
  weight_required: m.WEIGHT_MESSAGE,
  commodity_required: m.COMMODITY_MESSAGE,
  reference_number_required: m.REFERENCE_NUMBER_MESSAGE,
  load_type_required: m.LOAD_TYPE_MESSAGE,
  rate_invalid: m.RATE_MESSAGE,
  book_now_price_invalid: m.BOOK_NOW_PRICE_MESSAGE,
  rate_type_invalid: m.RATE_TYPE_MESSAGE,
  carriers_sorting_invalid: m.CARRIERS_SORTING_TYPE_MESSAGE,
  description_invalid: m.DESCRIPTION_MESSAGE,
  location_required: m.LOCATION_REQUIRED_MESSAGE,
  location_not_picked: m.LOCATION_NOT_PICKED_MESSAGE,
  facility_name_required: m.FACILITY_NAME_REQUIRED_MESSAGE,
  facility_name_too_short: m.FACILITY_NAME_TOO_SHORT_MESSAGE,
  location_type_invalid: m.LOCATION_TYPE_MESSAGE,
  location_order_invalid: m.LOCATION_ORDER_MESSAGE,
  stop_invalid: m.LOCATION_ID_MESSAGE,
  saved_location_invalid: m.SAVED_LOCATION_MESSAGE,
  save_location_required: m.SAVE_LOCATION_MESSAGE,
  contact_name_invalid: m.CONTACT_NAME_MESSAGE,
  location_number_invalid: m.LOCATION_NUMBER_MESSAGE,
  load_required: m.LOAD_ID_MESSAGE,
  cancel_status_invalid: m.CANCEL_STATUS_MESSAGE,
  message_required: m.CANCEL_MESSAGE_REQUIRED_MESSAGE,
  stop_unknown: 'Unknown stop',
  loads_csv_invalid: 'The file has errors; no load was imported',
  loads_csv_empty: 'The file has no loads',
  superadmin_posts_as_shipper: 'A Superadmin posts loads on behalf of a shipper from its account',
  // Offers and contracts
  proposal_not_found: 'Proposal not found',
  price_required: 'Please enter a price greater than 0',
  price_too_high: 'Please enter a price of at most $1,000,000',
  load_not_open_for_offers: 'This load is no longer open for offers',
  load_has_accepted_offer: 'This load already has an accepted offer',
  load_already_booked: 'This load has already been booked',
  load_without_book_now: 'This load has no Book Now price: make an offer instead',
  offer_on_own_load: 'You cannot make an offer on your own load',
  only_carrier_offers: 'Only a carrier can make an offer',
  only_shipper: 'Only the shipper can do this',
  counter_offer_needs_price: 'A counter offer needs a price',
  counter_offer_unanswered:
    'An offer that is Pending Acceptance cannot be accepted: the carrier has not answered the counter offer',
  only_accepted_offer_signs: 'Only the accepted offer can sign the contract of this load',
  rate_confirmation_not_ready: 'A rate confirmation exists once the offer is accepted',
  // Tours
  tour_not_found: 'Tour not found',
  tour_already_exists: 'Tour already exists',
  contract_before_driver: 'Upload the signed contract before assigning a driver',
  only_carrier_assigns_driver: 'Only the carrier can assign a driver',
  only_tour_completes_load: 'Only the tour of this load can complete it',
  only_parties_cancel_tour: 'Only the shipper or the carrier can cancel a tour',
  only_driver_sends_positions: 'Only the assigned driver sends positions',
  ratings_not_open: 'Ratings open once the tour is delivered',
  only_parties_rate: 'Only the shipper and the carrier of a tour rate it',
  already_rated: 'You have already rated this tour',
  rating_value_invalid: 'Ratings go from 0.5 to 5 in steps of 0.5',
  rating_set_invalid: 'Rate every criterion once',
  // Services (integrations)
  service_not_found: 'Service not found',
  service_required: 'Please select a service',
  service_invalid: 'Please select a valid service',
  service_secret_required: 'Please enter the secret',
  service_already_installed:
    'This service is already installed for your organization: update its credentials instead',
  // Saved searches
  saved_search_not_found: 'Saved search not found',
  saved_search_exists: 'This saved search already exists',
  saved_search_limit: 'An organization keeps at most 50 saved searches: delete one first',
  saved_search_carrier_only: 'Saved searches belong to a carrier organization',
  search_name_required: 'Please enter a name',
  search_name_too_long: 'Please enter a name of at most 100 characters',
  search_criteria_required: 'Choose an origin, a destination or equipment',
  // Webhooks
  webhook_limit: 'An organization keeps at most 10 webhooks: delete one first',
  webhook_replay_running:
    'A replay of this webhook is still queued: try again once its deliveries are delivered or failed',
  // The landing page
  interest_contact_required: m.INTEREST_CONTACT_REQUIRED_MESSAGE,
  interest_contact_too_long: m.INTEREST_CONTACT_TOO_LONG_MESSAGE,
  // Places
  place_not_found: 'No place found near these coordinates',
  // Requests
  text_not_storable:
    'This text contains a character that cannot be saved (a NUL or a broken character): please remove it',
  idempotency_in_progress:
    'A request with this Idempotency-Key is still being processed. Try again shortly.',
} as const;

export type CatalogCode = keyof typeof errorMessages;

/** The code of each status when the text is not in the catalog. */
export const genericCodes = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'too_many_requests',
  500: 'internal_error',
  503: 'service_unavailable',
} as const;

/** A 400 whose input failed its schema or a rule: the generic code of validation errors. */
export const VALIDATION_FAILED = 'validation_failed';

export type GenericCode =
  | (typeof genericCodes)[keyof typeof genericCodes]
  | typeof VALIDATION_FAILED
  | 'error';
export type ErrorCode = CatalogCode | GenericCode;

const codeByMessage = new Map<string, CatalogCode>();
for (const [code, message] of Object.entries(errorMessages) as [CatalogCode, string][]) {
  if (!codeByMessage.has(message)) codeByMessage.set(message, code);
}

/** The catalog's code of an English text, if it has one. */
export function codeOfMessage(message: string): CatalogCode | undefined {
  return codeByMessage.get(message);
}

/** The generic code of a status (`error` for a status without one). */
export function genericCode(statusCode: number): GenericCode {
  return (
    (genericCodes as Record<number, GenericCode>)[statusCode] ??
    (statusCode >= 500 ? 'internal_error' : 'error')
  );
}

/** The code of an error answer: the catalog's for its text, else the generic one of its status. */
export function errorCodeFor(statusCode: number, message: string): ErrorCode {
  return codeOfMessage(message) ?? genericCode(statusCode);
}

/** The catalog's English text of a code, if the code is in the catalog. */
export function messageOfCode(code: string | undefined): string | undefined {
  return code !== undefined && Object.hasOwn(errorMessages, code)
    ? errorMessages[code as CatalogCode]
    : undefined;
}
