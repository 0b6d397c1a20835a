import { useTranslation } from 'react-i18next';
import * as load from '../../../../domain/schemas/messages.ts';
import {
  SEARCH_CRITERIA_MESSAGE,
  SEARCH_NAME_MESSAGE,
  SEARCH_RADIUS_MESSAGE,
} from '../../../../domain/searches/savedSearch.messages.ts';
import { useMessageText } from '../../components/messages.ts';

/** The load and offer messages of the specification (section 5) and the server, with their keys. */
const keys: Record<string, string> = {
  [load.PICKUP_START_PAST_MESSAGE]: 'pickupStartPast',
  [load.PICKUP_DEADLINE_MESSAGE]: 'pickupDeadline',
  [load.DROPOFF_BEFORE_PICKUP_MESSAGE]: 'dropoffBeforePickup',
  [load.DROPOFF_DEADLINE_MESSAGE]: 'dropoffDeadline',
  [load.EXPIRATION_AFTER_PICKUP_MESSAGE]: 'expirationAfterPickup',
  [load.EXPIRATION_PAST_MESSAGE]: 'expirationPast',
  [load.DATE_IN_PAST_MESSAGE]: 'dateInPast',
  [load.DATE_TIME_INVALID_MESSAGE]: 'dateTimeInvalid',
  [load.TIMEZONE_REQUIRED_MESSAGE]: 'timezoneRequired',
  [load.TIMEZONE_INVALID_MESSAGE]: 'timezoneInvalid',
  [load.LOAD_EQUIPMENT_MESSAGE]: 'equipmentRequired',
  [load.LOAD_EQUIPMENT_INVALID_MESSAGE]: 'equipmentInvalid',
  [load.LOAD_ACCESSORIES_MESSAGE]: 'accessoriesRequired',
  [load.WEIGHT_MESSAGE]: 'weightRequired',
  [load.COMMODITY_MESSAGE]: 'commodityRequired',
  [load.REFERENCE_NUMBER_MESSAGE]: 'referenceRequired',
  [load.LOCATION_REQUIRED_MESSAGE]: 'locationRequired',
  [load.LOCATION_NOT_PICKED_MESSAGE]: 'locationNotPicked',
  [load.FACILITY_NAME_REQUIRED_MESSAGE]: 'facilityNameRequired',
  [load.FACILITY_NAME_TOO_SHORT_MESSAGE]: 'facilityNameTooShort',
  [load.LOCATION_ORDER_MESSAGE]: 'locationOrder',
  [load.CANCEL_MESSAGE_REQUIRED_MESSAGE]: 'cancelMessageRequired',
  [SEARCH_NAME_MESSAGE]: 'searchNameRequired',
  [SEARCH_CRITERIA_MESSAGE]: 'searchCriteria',
  [SEARCH_RADIUS_MESSAGE]: 'searchRadius',
  'Please enter a price greater than 0': 'priceRequired',
  'Load created': 'loadCreated',
  'Load updated': 'loadUpdated',
  'Load canceled': 'loadCanceled',
  'Offer submitted': 'offerSubmitted',
  'Offer revised': 'offerRevised',
};

/** A message in the user's language: the marketplace's own, then the shared ones, else as sent. */
export function useLoadMessageText(): (message: string) => string {
  const { t } = useTranslation();
  const shared = useMessageText();
  return (message) => {
    const key = keys[message];
    return key ? (t(`marketplace.messages.${key}` as never) as string) : shared(message);
  };
}
