/** The saved searches' English messages, free of zod: the browser translates them without the schema. */
import { searchRadii } from '../catalog.ts';

export const SEARCH_NAME_MESSAGE = 'Please enter a name';
export const SEARCH_NAME_TOO_LONG_MESSAGE = 'Please enter a name of at most 100 characters';
export const SEARCH_CRITERIA_MESSAGE = 'Choose an origin, a destination or equipment';
export const SEARCH_LOCATION_MESSAGE = 'Please select a valid location.';
export const SEARCH_RADIUS_MESSAGE = `Please choose a radius of ${searchRadii.slice(0, -1).join(', ')} or ${searchRadii.at(-1)} miles`;
export const SEARCH_EQUIPMENT_MESSAGE = 'Please select a valid load equipment';
export const SEARCH_LIMIT_MESSAGE =
  'An organization keeps at most 50 saved searches: delete one first';
