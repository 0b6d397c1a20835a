/**
 * The English messages of the schemas (specification sections 5 and 8), free of zod and luxon:
 * the browser's message tables translate them without loading the schemas. Each schema file
 * re-exports its own.
 */

// Fields (fields.ts)
export const EMAIL_REQUIRED_MESSAGE = 'Please enter Email Address!';
export const EMAIL_FORMAT_MESSAGE = 'The Email you entered is not a valid format!';

// The landing page's sign-up-interest form (fields.ts): what the visitor typed, no format check.
export const INTEREST_CONTACT_REQUIRED_MESSAGE =
  'Please enter your e-mail address, or another way to reach you';
export const INTEREST_CONTACT_TOO_LONG_MESSAGE =
  'Please enter at most 200 characters: your e-mail address, or another way to reach you';

// Phones (phone.ts)
export const PHONE_FORMAT_MESSAGE =
  'Please enter a valid US phone number (e.g. (555) 555-5555, 555-555-5555, or 5555555555)';
export const PHONE_REQUIRED_MESSAGE = 'Please enter phone!';

// The sign-up code (pin.ts)
export const PIN_MESSAGE = 'Please enter the 6-digit code';

// Users (user.schema.ts)
export const NAME_REQUIRED_MESSAGE = 'Please enter name!';
export const USERNAME_REQUIRED_MESSAGE = 'Please enter username!';
export const PASSWORD_REQUIRED_MESSAGE = 'Please enter password!';
export const PASSWORD_TOO_SHORT_MESSAGE = 'Password is too short - should be 8 chars minimum';
export const PASSWORDS_MUST_MATCH_MESSAGE = 'Passwords must match';
export const PASSWORDS_DID_NOT_MATCH_MESSAGE = 'The two passwords you entered did not match!';
export const ROLE_REQUIRED_MESSAGE = 'Please select a role';
export const ORGANIZATION_ID_MESSAGE = 'Please select a valid organization';
export const RESET_CODE_REQUIRED_MESSAGE = 'Please enter the reset code';

// Organizations (organization.schema.ts)
export const COMPANY_NAME_MESSAGE = 'Please enter company name!';
// The specification's text, "password" included.
export const CONTACT_PERSON_MESSAGE = 'Please enter password contact person name!';
export const COMPANY_ADDRESS_MESSAGE = 'Please enter company address!';
export const ORGANIZATION_TYPE_MESSAGE = 'Please select an organization type';

// Carrier profiles (carrierProfile.schema.ts)
export const MC_NUMBER_MESSAGE = 'Please enter your MC Number';
export const DOT_NUMBER_MESSAGE = 'Please enter your DOT Number';
export const TRUCK_TYPE_MESSAGE = 'Please select a valid truck type';
export const TRAILER_TYPE_MESSAGE = 'Please select a valid trailer type';
export const DRIVER_TEAM_MESSAGE = 'Please select a valid driver team';
export const COUNT_MESSAGE = 'Please enter a count of at least 1';
export const INSURED_AMOUNT_MESSAGE = 'Please select an insurance amount';

// Registration and files (registration.schema.ts)
export const ACCEPT_TERMS_MESSAGE = 'Accept Terms & Conditions is required';
export const FILE_REQUIRED_MESSAGE = 'A file is required';
export const FILE_TOO_LARGE_MESSAGE = 'File too large';
export const UNSUPPORTED_FORMAT_MESSAGE = 'Unsupported Format';

// Loads (load.schema.ts)
// Load dates (section 5)
export const PICKUP_START_PAST_MESSAGE = "Start can't be before current date and time.";
export const PICKUP_DEADLINE_MESSAGE = "Deadline can't be before pickup start date";
export const DROPOFF_BEFORE_PICKUP_MESSAGE = "Dropoff can't be before pickup start date";
export const DROPOFF_DEADLINE_MESSAGE = "Deadline can't be before dropoff start date";
export const EXPIRATION_AFTER_PICKUP_MESSAGE = "Expiration can't be after pickup start date";
export const EXPIRATION_PAST_MESSAGE = "Expiration can't be before current date and time.";
/** The load form's date-time dialog (section 2); the body reports the rules above instead. */
export const DATE_IN_PAST_MESSAGE = 'Please select date that is not in the past.';
export const DATE_TIME_INVALID_MESSAGE = 'Please enter a valid date and time';
export const TIMEZONE_REQUIRED_MESSAGE = 'Please select a timezone';
export const TIMEZONE_INVALID_MESSAGE = 'Please select a valid timezone';
// Equipment and load details
export const LOAD_EQUIPMENT_MESSAGE = 'Please select at least one load equipment';
export const LOAD_EQUIPMENT_INVALID_MESSAGE = 'Please select a valid load equipment';
export const LOAD_ACCESSORIES_MESSAGE = 'Please enter load accessories';
export const LOAD_ACCESSORY_INVALID_MESSAGE = 'Please select a valid load accessory';
export const WEIGHT_MESSAGE = 'Please enter weight';
export const COMMODITY_MESSAGE = 'Please enter commodity';
export const REFERENCE_NUMBER_MESSAGE = 'Please enter reference number';
export const LOAD_TYPE_MESSAGE = 'Please select a load type';
export const RATE_MESSAGE = 'Please enter a valid rate';
export const RATE_TYPE_MESSAGE = 'Please select a valid rate type';
export const CARRIERS_SORTING_TYPE_MESSAGE = 'Please select a valid carrier sorting';
export const DESCRIPTION_MESSAGE = 'Please enter a valid description';
// Times a client or a provider observed something at (observedTime.ts): `field` names the field
export const observedTimeFormatMessage = (field: string) => `${field} must be an ISO 8601 time`;
export const observedTimeWindowMessage = (field: string) =>
  `${field} must be within the last 7 days and not in the future`;
// Each stop
export const LOCATION_REQUIRED_MESSAGE = 'Please select a valid location.';
/** The place was typed, not picked from the search (no coordinates). */
export const LOCATION_NOT_PICKED_MESSAGE = 'Please select a valid location';
export const FACILITY_NAME_REQUIRED_MESSAGE = 'Please enter the facility name.';
export const FACILITY_NAME_TOO_SHORT_MESSAGE = 'Please enter the name with more then 3 characters.';
export const LOCATION_TYPE_MESSAGE = 'Please select a valid location type';
export const LOCATION_ORDER_MESSAGE =
  'A load needs one pickup location first and one dropoff location last';
export const LOCATION_ID_MESSAGE = 'Please select a valid stop';
export const SAVED_LOCATION_MESSAGE = 'Please select a valid saved location';
export const SAVE_LOCATION_MESSAGE = 'Please choose whether to save the location';
export const CONTACT_NAME_MESSAGE = 'Please enter a valid contact name';
export const LOCATION_NUMBER_MESSAGE = 'Please enter a valid number';
// Other load calls
export const LOAD_ID_MESSAGE = 'Please select a load';
export const CANCEL_STATUS_MESSAGE = 'Please select a valid status';
export const CANCEL_MESSAGE_REQUIRED_MESSAGE = 'Please enter a message';

export const BOOK_NOW_PRICE_MESSAGE =
  'Please enter a Book Now price greater than 0, or leave it empty';
