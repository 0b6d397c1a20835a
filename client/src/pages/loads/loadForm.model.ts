import {
  isTimeZoneId,
  LoadType,
  LocationType,
  timeZoneIds,
  type TimeZoneId,
} from '../../../../domain/catalog.ts';
import {
  DATE_IN_PAST_MESSAGE,
  loadBodySchema,
  LOCATION_NOT_PICKED_MESSAGE,
  parseLoadTime,
} from '../../../../domain/schemas/load.schema.ts';
import { wallTime } from './wallTime.ts';
import { type TermsFormValues, termsFormOf, termsOf, toTerms } from '../../shared/terms/terms.ts';
import type { LoadDetail, Place, SavedLocation } from '../../shared/loads/loads.api.ts';

/**
 * The load form's state (specification section 3: in form state a stop uses typeId, lat, long and
 * placeName) and its conversions to the body of POST and PUT loads and back from GET loads/{id}.
 */
export interface StopForm {
  /** The form's own id: a new stop's is one more than the highest existing id. */
  id: number;
  /** The stored stop's id when editing; null for a stop added here. */
  serverId: string | null;
  typeId: number;
  placeName: string;
  city: string | null;
  state: string | null;
  lat: number;
  long: number;
  name: string;
  contactName: string;
  contactPhone: string;
  number: string;
  saveLocation: boolean;
  savedLocationId: string | null;
}

export interface LoadFormValues {
  pickupStart: string;
  pickupEndEnabled: boolean;
  pickupEnd: string;
  pickupTimezone: string;
  dropoffStart: string;
  dropoffEndEnabled: boolean;
  dropoffEnd: string;
  dropoffTimezone: string;
  expiration: string;
  expirationTimezone: string;
  loadTypeId: number;
  equipment: number[];
  searchDistance: number;
  stops: StopForm[];
  accessories: number[];
  weight: string;
  description: string;
  refNumber: string;
  commodity: string;
  /** The accessorial terms; off for a load without them ("No terms"). */
  terms: TermsFormValues;
  /** Preferred carriers first for this many hours (0 to 168); empty: everyone at once (editing: unchanged). */
  preferredOnlyHours: string;
  /** The Book Now price as typed; empty: the load only takes offers. */
  bookNowPrice: string;
}

export type FieldErrors = Record<string, string>;

/** The browser's zone when it is one of the six, else New York. */
export const defaultTimeZone = (): TimeZoneId => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return isTimeZoneId(zone) ? zone : timeZoneIds[0];
};

export const blankStop = (id: number, typeId: number): StopForm => ({
  id,
  serverId: null,
  typeId,
  placeName: '',
  city: null,
  state: null,
  lat: 0,
  long: 0,
  name: '',
  contactName: '',
  contactPhone: '',
  number: '',
  saveLocation: false,
  savedLocationId: null,
});

export const initialValues = (): LoadFormValues => {
  const zone = defaultTimeZone();
  return {
    pickupStart: '',
    pickupEndEnabled: false,
    pickupEnd: '',
    pickupTimezone: zone,
    dropoffStart: '',
    dropoffEndEnabled: false,
    dropoffEnd: '',
    dropoffTimezone: zone,
    expiration: '',
    expirationTimezone: zone,
    loadTypeId: LoadType.FTL,
    equipment: [],
    searchDistance: 50,
    stops: [blankStop(1, LocationType.Pickup), blankStop(2, LocationType.Dropoff)],
    accessories: [],
    weight: '',
    description: '',
    refNumber: '',
    commodity: '',
    terms: termsFormOf(null, false),
    preferredOnlyHours: '',
    bookNowPrice: '',
  };
};

/** Adds an extra stop before the final dropoff, with the next id. */
export const withExtraStop = (
  stops: StopForm[],
  typeId: number = LocationType.ExtraDropoffStop,
): StopForm[] => {
  const nextId = Math.max(0, ...stops.map((stop) => stop.id)) + 1;
  const last = stops.at(-1);
  const fresh = blankStop(nextId, typeId);
  return last && last.typeId === LocationType.Dropoff
    ? [...stops.slice(0, -1), fresh, last]
    : [...stops, fresh];
};

export const placeOnStop = (stop: StopForm, place: Place): StopForm => ({
  ...stop,
  placeName: place.address || place.name,
  city: place.city,
  state: place.state,
  lat: place.latitude,
  long: place.longitude,
  savedLocationId: null,
});

export const savedOnStop = (stop: StopForm, saved: SavedLocation): StopForm => ({
  ...stop,
  placeName: saved.address,
  city: saved.city,
  state: saved.state,
  lat: saved.latitude,
  long: saved.longitude,
  name: saved.name,
  contactName: saved.contactName ?? '',
  contactPhone: saved.contactPhone ?? '',
  number: saved.number ?? '',
  savedLocationId: saved.id,
  saveLocation: false,
});

const numberOrText = (text: string): number | string =>
  text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;

/** The body of POST loads (section 3 "Load (sent on create)"); PUT adds loadId and the stops' ids. */
export const toLoadBody = (values: LoadFormValues, loadId?: string | null) => ({
  ...(loadId ? { loadId } : {}),
  pickupTimestampStart: values.pickupStart,
  pickupTimestampEnd: values.pickupEndEnabled ? values.pickupEnd : null,
  pickupTimezone: values.pickupTimezone,
  dropOffTimestampStart: values.dropoffStart,
  dropOffTimestampEnd: values.dropoffEndEnabled ? values.dropoffEnd : null,
  dropoffTimezone: values.dropoffTimezone,
  expiration: values.expiration,
  expirationTimezone: values.expirationTimezone,
  loadTypeId: values.loadTypeId,
  rate: 1,
  rateTypeId: 1,
  carriersSortingTypeId: 1,
  loadAccessories: values.accessories,
  loadEquipment: values.equipment,
  description: values.description,
  weight: numberOrText(values.weight),
  commodity: values.commodity,
  refNumber: values.refNumber,
  // Empty: none (an edit sends null to withdraw it).
  bookNowPrice: values.bookNowPrice.trim() === '' ? null : numberOrText(values.bookNowPrice),
  locations: values.stops.map((stop) => ({
    ...(loadId ? { id: stop.serverId } : {}),
    locationType: stop.typeId,
    address: stop.placeName,
    city: stop.city,
    state: stop.state,
    latitude: stop.lat,
    longitude: stop.long,
    name: stop.name,
    contactName: stop.contactName,
    contactPhone: stop.contactPhone,
    number: stop.number,
    saveLocation: stop.saveLocation,
    savedLocationId: stop.savedLocationId,
  })),
  // Sent when on; an edit sends null to take them off.
  ...(values.terms.enabled || loadId ? { terms: toTerms(values.terms) } : {}),
  // Sent when filled in: preferred carriers first for that many hours (0: everyone at once).
  ...(values.preferredOnlyHours.trim() === ''
    ? {}
    : { audience: { preferredOnlyHours: numberOrText(values.preferredOnlyHours) } }),
});

/** The form filled from a stored load (edit). */
export const fromLoad = (load: LoadDetail): LoadFormValues => ({
  pickupStart: wallTime(load.pickupTimestampStart, load.pickupTimezone),
  pickupEndEnabled: Boolean(load.pickupTimestampEnd),
  pickupEnd: wallTime(load.pickupTimestampEnd, load.pickupTimezone),
  pickupTimezone: load.pickupTimezone,
  dropoffStart: wallTime(load.dropOffTimestampStart, load.dropoffTimezone),
  dropoffEndEnabled: Boolean(load.dropOffTimestampEnd),
  dropoffEnd: wallTime(load.dropOffTimestampEnd, load.dropoffTimezone),
  dropoffTimezone: load.dropoffTimezone,
  expiration: wallTime(load.expiration, load.expirationTimezone),
  expirationTimezone: load.expirationTimezone,
  loadTypeId: load.loadTypeId,
  equipment: load.loadEquipment,
  searchDistance: 50,
  stops: load.locations.map((stop, index) => ({
    id: index + 1,
    serverId: stop.id,
    typeId: stop.locationType,
    placeName: stop.address,
    city: stop.city,
    state: stop.state,
    lat: stop.latitude,
    long: stop.longitude,
    name: stop.name,
    contactName: stop.contactName ?? '',
    contactPhone: stop.contactPhone ?? '',
    number: stop.number ?? '',
    saveLocation: false,
    savedLocationId: null,
  })),
  accessories: load.loadAccessories,
  weight: String(load.weight),
  description: load.description ?? '',
  refNumber: load.refNumber,
  commodity: load.commodity,
  terms: termsFormOf(termsOf(load)),
  preferredOnlyHours: load.audience ? String(load.audience.preferredOnlyHours) : '',
  bookNowPrice: load.bookNowPrice == null ? '' : String(load.bookNowPrice),
});

/** The three steps and the body fields each one owns. */
export const steps = ['general', 'locations', 'details'] as const;
const stepOfField = (path: string): number => {
  if (path.startsWith('locations')) return 1;
  if (
    [
      'loadAccessories',
      'weight',
      'commodity',
      'refNumber',
      'description',
      'terms',
      'audience',
      'bookNowPrice',
    ].some((field) => path === field || path.startsWith(`${field}.`))
  )
    return 2;
  return 0;
};

/** Section 5's messages for the whole form, by body path ('locations.1.name'). */
export function validateLoad(values: LoadFormValues, nowIso: string): FieldErrors {
  const errors = issuesOf(values, nowIso);
  // The schema's empty-facility-name rule aborts, and an aborted issue skips the date rules: check
  // the dates again with names filled in, so 'General info' shows its messages before 'Locations' is filled.
  if (values.stops.some((stop) => stop.name.trim() === '')) {
    const named = {
      ...values,
      stops: values.stops.map((stop) => ({ ...stop, name: stop.name.trim() || 'placeholder' })),
    };
    for (const [path, message] of Object.entries(issuesOf(named, nowIso)))
      if (stepOfField(path) === 0) errors[path] ??= message;
    // The same abort skips the stop's "picked from the search" rule.
    values.stops.forEach((stop, index) => {
      if (stop.placeName.trim() !== '' && (stop.lat === 0 || stop.long === 0))
        errors[`locations.${index}.address`] ??= LOCATION_NOT_PICKED_MESSAGE;
    });
  }
  return errors;
}

function issuesOf(values: LoadFormValues, nowIso: string): FieldErrors {
  const result = loadBodySchema(nowIso).safeParse(toLoadBody(values));
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || 'locations';
    errors[key] ??= issue.message;
  }
  return errors;
}

export const errorsOfStep = (errors: FieldErrors, step: number): FieldErrors =>
  Object.fromEntries(Object.entries(errors).filter(([path]) => stepOfField(path) === step));

export const firstStepWithErrors = (errors: FieldErrors): number | null => {
  const found = Object.keys(errors).map(stepOfField);
  return found.length ? Math.min(...found) : null;
};

/** 'Please select date that is not in the past.' for a picked time before this minute, else null. */
export const pastDateMessage = (value: string, zone: string, nowIso: string): string | null => {
  if (!value || !isTimeZoneId(zone)) return null;
  const instant = parseLoadTime(value, zone);
  if (!instant) return null;
  return Date.parse(instant) < Math.floor(Date.parse(nowIso) / 60_000) * 60_000
    ? DATE_IN_PAST_MESSAGE
    : null;
};
