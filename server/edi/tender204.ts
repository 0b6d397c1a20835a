/**
 * A 204 load tender as a load: B2 (the shipment id, our reference number), B2A (00 original, 01
 * cancel, 04 change, 05 replace), L11 references and NTE notes (into the description), N7 equipment,
 * L3 or AT8 weight, L5 commodity, and the stops from the S5 loops with their N1/N3/N4 place, G61
 * contact, L11 numbers and G62 dates, read in the stop's time zone (G62 05, or the stop's state).
 * The result is a load body with the form's field names, checked afterwards by the same rules as the
 * form (`loadBodySchema`); each of its errors is sent back on the segment it came from.
 */
import { DateTime } from 'luxon';
import { LocationType, NO_ACCESSORY, type TimeZoneId } from '../../domain/catalog.ts';
import type { EdiError } from '../../domain/contracts/edi.contract.ts';
import { isUsPhone } from '../../domain/schemas/phone.ts';
import type { Segment } from './x12.ts';

export type TenderPurpose = 'original' | 'cancel' | 'change';

const PURPOSES: Record<string, TenderPurpose> = {
  '00': 'original',
  '01': 'cancel',
  '04': 'change',
  '05': 'change',
};

/** S502 stop reasons: loading is a pickup, unloading a delivery. */
const PICKUP_REASONS = new Set(['CL', 'LD', 'PL', 'PA']);
const DROPOFF_REASONS = new Set(['CU', 'UL', 'PU', 'PD']);
/** N101 entity codes of a stop's party. */
const PICKUP_PARTIES = new Set(['SF', 'SH']);
const DROPOFF_PARTIES = new Set(['ST', 'CN']);
/** G62 01 qualifiers that close a window (no later than); every other one opens it. */
const WINDOW_END = new Set(['38', '54', '79']);

/** The zone of each state: the catalog's six, and where Mountain time keeps daylight saving, Denver's clock. */
const EASTERN = 'CT DE DC FL GA IN KY ME MD MA MI NH NJ NY NC OH PA RI SC VT VA WV'.split(' ');
const CENTRAL = 'AL AR IL IA KS LA MN MS MO NE ND OK SD TN TX WI'.split(' ');
const MOUNTAIN = 'CO ID MT NM UT WY'.split(' ');
const PACIFIC = 'CA NV OR WA'.split(' ');

type Clock = { zone: TimeZoneId; reading: string };
const clockOfState = (state: string): Clock | null => {
  const code = state.toUpperCase();
  if (EASTERN.includes(code)) return { zone: 'America/New_York', reading: 'America/New_York' };
  if (CENTRAL.includes(code)) return { zone: 'America/Chicago', reading: 'America/Chicago' };
  // The catalog has no Mountain zone with daylight saving: the time is read on Denver's clock and
  // shown in the nearest zone of the catalog.
  if (MOUNTAIN.includes(code)) return { zone: 'America/Phoenix', reading: 'America/Denver' };
  if (code === 'AZ') return { zone: 'America/Phoenix', reading: 'America/Phoenix' };
  if (PACIFIC.includes(code))
    return { zone: 'America/Los_Angeles', reading: 'America/Los_Angeles' };
  if (code === 'AK') return { zone: 'America/Anchorage', reading: 'America/Anchorage' };
  if (code === 'HI') return { zone: 'Pacific/Honolulu', reading: 'Pacific/Honolulu' };
  return null;
};
/** G62 05 time codes. */
const clockOfCode = (code: string): (Omit<Clock, 'zone'> & { zone: TimeZoneId | null }) | null => {
  switch (code.toUpperCase()) {
    case 'ET':
    case 'ES':
    case 'ED':
      return { zone: 'America/New_York', reading: 'America/New_York' };
    case 'CT':
    case 'CS':
    case 'CD':
      return { zone: 'America/Chicago', reading: 'America/Chicago' };
    case 'MT':
    case 'MS':
    case 'MD':
      return { zone: 'America/Phoenix', reading: 'America/Denver' };
    case 'PT':
    case 'PS':
    case 'PD':
      return { zone: 'America/Los_Angeles', reading: 'America/Los_Angeles' };
    case 'AT':
      return { zone: 'America/Anchorage', reading: 'America/Anchorage' };
    case 'HT':
      return { zone: 'Pacific/Honolulu', reading: 'Pacific/Honolulu' };
    case 'UT':
    case 'GM':
      return { zone: null, reading: 'utc' };
    default:
      return null;
  }
};

/** N7 11 equipment codes, to the catalog's trailer types (anything else is a dry van). */
const EQUIPMENT: Record<string, number> = {
  TL: 1,
  TV: 1,
  VN: 1,
  TF: 1,
  RT: 9,
  RF: 9,
  TT: 9,
  FT: 22,
  FR: 22,
  FX: 22,
  CN: 1,
};

type TenderTime = { qualifier: string; instant: string; zone: TimeZoneId; segment: Segment };

export type TenderStop = {
  sequence: string;
  pickup: boolean;
  name: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  contactName: string | null;
  contactPhone: string | null;
  number: string | null;
  times: TenderTime[];
  weightLb: number | null;
  s5: Segment;
  n1: Segment | null;
  n4: Segment | null;
  /** Whether S502 said loading or unloading; else the N1 party decides. */
  reasonKnown: boolean;
  /** The loop's G62 segments, read once the loop's state is known. */
  g62: Segment[];
};

export type Tender = {
  purpose: TenderPurpose;
  shipmentId: string;
  b2: Segment;
  equipmentId: number;
  weightLb: number | null;
  weightSegment: Segment | null;
  commodity: string | null;
  description: string;
  stops: TenderStop[];
};

const error = (
  segment: Segment,
  element: number | null,
  code: string,
  reason: string,
): EdiError => ({ segment: segment.tag, position: segment.position, element, code, reason });

const pounds = (amount: string, unit: string): number | null => {
  const value = Number(amount);
  if (!amount || !Number.isFinite(value) || value <= 0) return null;
  return unit.toUpperCase() === 'K' ? Math.round(value * 2.20462) : value;
};

/** A G62 date and time, read on the stop's clock; an error names the element when it is not a date or a time. */
function readTime(g62: Segment, state: string): { time: TenderTime } | { error: EdiError } | null {
  const date = g62.el(2);
  if (!date) return null;
  const dateMatch = /^(\d{4})(\d{2})(\d{2})$/.exec(date);
  const time = g62.el(4);
  const timeMatch = time ? /^(\d{2})(\d{2})(\d{2})?(\d{2})?$/.exec(time) : null;
  if (time && !timeMatch) return { error: error(g62, 4, '9', `The time ${time} is not HHMM`) };
  const code = g62.el(5);
  const clock = code && code.toUpperCase() !== 'LT' ? clockOfCode(code) : clockOfState(state);
  if (code && code.toUpperCase() !== 'LT' && !clock)
    return { error: error(g62, 5, '7', `The time code ${code} is not known`) };
  if (!clock)
    return {
      error: error(
        g62,
        5,
        '7',
        `The stop's state ${state || '(none)'} has no known time zone: send the time code (G62 05)`,
      ),
    };
  const day = dateMatch
    ? DateTime.fromObject(
        { year: Number(dateMatch[1]), month: Number(dateMatch[2]), day: Number(dateMatch[3]) },
        { zone: 'utc' },
      )
    : null;
  if (!day?.isValid)
    return { error: error(g62, 2, '8', `The date ${date} is not a date (CCYYMMDD)`) };
  const reading = DateTime.fromObject(
    {
      year: day.year,
      month: day.month,
      day: day.day,
      hour: timeMatch ? Number(timeMatch[1]) : 0,
      minute: timeMatch ? Number(timeMatch[2]) : 0,
    },
    { zone: clock.reading },
  );
  if (!reading.isValid)
    return { error: error(g62, 4, '9', `The time ${time} is not a time of day`) };
  const zone = clock.zone ?? clockOfState(state)?.zone ?? 'America/Chicago';
  return {
    time: {
      qualifier: g62.el(1),
      instant: new Date(reading.toMillis()).toISOString(),
      zone,
      segment: g62,
    },
  };
}

/** Reads the tender from the segments of a 204 (between ST and SE). */
export function readTender(segments: Segment[]): { tender: Tender } | { errors: EdiError[] } {
  const errors: EdiError[] = [];
  const b2 = segments.find((segment) => segment.tag === 'B2');
  const b2a = segments.find((segment) => segment.tag === 'B2A');
  const first = segments[0];
  if (!b2) {
    return {
      errors: [
        {
          segment: 'B2',
          position: first?.position ?? 2,
          element: null,
          code: '3',
          reason: 'The tender has no B2 segment',
        },
      ],
    };
  }
  const shipmentId = b2.el(4);
  if (!shipmentId) errors.push(error(b2, 4, '1', 'B204 (the shipment id) is missing'));
  const purposeCode = b2a?.el(1) ?? '00';
  const purpose = PURPOSES[purposeCode];
  if (!purpose && b2a)
    errors.push(error(b2a, 1, '7', `B2A01 ${purposeCode} is not 00, 01, 04 or 05`));

  const references: string[] = [];
  const notes: string[] = [];
  let equipmentId = 1;
  let weightLb: number | null = null;
  let weightSegment: Segment | null = null;
  let commodity: string | null = null;
  const stops: TenderStop[] = [];
  let stop: TenderStop | null = null;
  // The N1 loop a N3, N4 or G61 belongs to: inside a stop, the stop's; before any stop, a party of the shipment.
  let inStopParty = false;

  for (const segment of segments) {
    switch (segment.tag) {
      case 'S5': {
        const reason = segment.el(2).toUpperCase();
        stop = {
          sequence: segment.el(1),
          pickup: PICKUP_REASONS.has(reason) ? true : !DROPOFF_REASONS.has(reason),
          name: '',
          address: '',
          city: '',
          state: '',
          zip: '',
          contactName: null,
          contactPhone: null,
          number: null,
          times: [],
          weightLb: pounds(segment.el(3), segment.el(4)),
          s5: segment,
          n1: null,
          n4: null,
          reasonKnown: PICKUP_REASONS.has(reason) || DROPOFF_REASONS.has(reason),
          g62: [],
        };
        stops.push(stop);
        inStopParty = false;
        break;
      }
      case 'L11': {
        const [id, qualifier] = [segment.el(1), segment.el(2)];
        if (!id) break;
        if (stop && stop.number === null) stop.number = id;
        else if (!stop) references.push(qualifier ? `${qualifier} ${id}` : id);
        break;
      }
      case 'NTE': {
        const text = segment.el(2);
        if (text) notes.push(text);
        break;
      }
      case 'N7': {
        const code = segment.el(11).toUpperCase();
        if (code) equipmentId = EQUIPMENT[code] ?? 1;
        break;
      }
      case 'L5': {
        const text = segment.el(2);
        if (text && !commodity) commodity = text;
        break;
      }
      case 'L3': {
        const weight = pounds(segment.el(1), segment.el(2) === 'K' ? 'K' : 'L');
        if (weight !== null) {
          weightLb = weight;
          weightSegment = segment;
        }
        break;
      }
      case 'AT8': {
        const weight = pounds(segment.el(3), segment.el(2));
        if (weight !== null && weightSegment?.tag !== 'L3') {
          if (stop?.pickup || !stop) {
            weightLb = (weightSegment?.tag === 'AT8' ? (weightLb ?? 0) : 0) + weight;
            weightSegment = segment;
          }
        }
        break;
      }
      case 'N1': {
        const entity = segment.el(1).toUpperCase();
        // The stop's own party is its first N1, or one that ships or receives; another party
        // (bill-to, broker…) ends it.
        if (
          !stop ||
          (stop.n1 !== null && !PICKUP_PARTIES.has(entity) && !DROPOFF_PARTIES.has(entity))
        ) {
          inStopParty = false;
          break;
        }
        inStopParty = true;
        if (!stop.reasonKnown) {
          if (DROPOFF_PARTIES.has(entity)) stop.pickup = false;
          if (PICKUP_PARTIES.has(entity)) stop.pickup = true;
        }
        stop.name = segment.el(2);
        stop.n1 = segment;
        break;
      }
      case 'N3':
        if (stop && inStopParty)
          stop.address = [stop.address, segment.el(1), segment.el(2)].filter(Boolean).join(' ');
        break;
      case 'N4':
        if (stop && inStopParty) {
          stop.city = segment.el(1);
          stop.state = segment.el(2).toUpperCase();
          stop.zip = segment.el(3);
          stop.n4 = segment;
        }
        break;
      case 'G61':
        // The contact's name, and its number when G6103 says it is a telephone (TE).
        if (stop && inStopParty) {
          stop.contactName ??= segment.el(2) || null;
          // A number the form would refuse (not a US one) is left out rather than refusing the tender.
          if (segment.el(3).toUpperCase() === 'TE' && isUsPhone(segment.el(4)))
            stop.contactPhone ??= segment.el(4);
        }
        break;
      case 'G62':
        // The state may come after the date in the loop: read once the loop is complete (below).
        stop?.g62.push(segment);
        break;
      default:
        break;
    }
  }

  for (const each of stops) {
    for (const g62 of each.g62) {
      const read = readTime(g62, each.state);
      if (!read) continue;
      if ('error' in read) errors.push(read.error);
      else each.times.push(read.time);
    }
  }
  if (errors.length > 0) return { errors };
  if (weightLb === null) {
    const pickupWeights = stops.filter((each) => each.pickup && each.weightLb !== null);
    if (pickupWeights.length > 0) {
      weightLb = pickupWeights.reduce((sum, each) => sum + (each.weightLb ?? 0), 0);
      weightSegment = pickupWeights[0]!.s5;
    }
  }
  const description = [
    ...notes,
    ...(references.length > 0 ? [`References: ${references.join(', ')}`] : []),
  ].join('\n');
  return {
    tender: {
      purpose: purpose ?? 'original',
      shipmentId,
      b2,
      equipmentId,
      weightLb,
      weightSegment,
      commodity,
      description,
      stops,
    },
  };
}

/** The window of a stop: its first opening time, and a closing one if sent. */
const windowOf = (stop: TenderStop) => {
  const opening = stop.times.find((time) => !WINDOW_END.has(time.qualifier)) ?? stop.times[0];
  const closing = stop.times.find((time) => WINDOW_END.has(time.qualifier) && time !== opening);
  return { opening: opening ?? null, closing: closing ?? null };
};

export type GeocodedPlace = {
  address: string;
  latitude: number;
  longitude: number;
  city: string | null;
  state: string | null;
};

/** Where in the 204 each field of the load body came from, to send its errors back there. */
export type FieldSources = Map<string, { segment: Segment; element: number | null; code: string }>;

/**
 * The load body (the form's field names) a tender stands for, and the segment behind each field.
 * Errors here are what the form's rules cannot say (no stops, no dates).
 */
export function loadBodyOfTender(
  tender: Tender,
  geocode: (query: string) => GeocodedPlace | null,
): { body: Record<string, unknown>; sources: FieldSources } | { errors: EdiError[] } {
  const { stops } = tender;
  const errors: EdiError[] = [];
  const sources: FieldSources = new Map();
  const firstPickup = stops[0];
  const lastDropoff = stops[stops.length - 1];
  if (stops.length < 2 || !firstPickup?.pickup || lastDropoff?.pickup) {
    return {
      errors: [
        error(
          stops[0]?.s5 ?? tender.b2,
          stops[0] ? 2 : null,
          '3',
          'A tender needs a pickup stop first and a delivery stop last (S5 loops with S502 CL/LD and CU/UL)',
        ),
      ],
    };
  }
  const pickup = windowOf(firstPickup);
  const dropoff = windowOf(lastDropoff);
  if (!pickup.opening)
    errors.push(error(firstPickup.s5, null, '3', 'The pickup stop has no date (G62)'));
  if (!dropoff.opening)
    errors.push(error(lastDropoff.s5, null, '3', 'The delivery stop has no date (G62)'));
  if (errors.length > 0) return { errors };

  const locations = stops.map((stop, index) => {
    const query = [stop.city, stop.state].filter(Boolean).join(', ');
    const place = (query ? geocode(query) : null) ?? (stop.zip ? geocode(stop.zip) : null);
    const field = `locations.${index}`;
    const n4 = stop.n4 ?? stop.n1 ?? stop.s5;
    sources.set(`${field}.address`, { segment: n4, element: stop.n4 ? 1 : null, code: '7' });
    sources.set(`${field}.name`, {
      segment: stop.n1 ?? stop.s5,
      element: stop.n1 ? 2 : null,
      code: '1',
    });
    sources.set(`${field}.contactPhone`, { segment: stop.n1 ?? stop.s5, element: null, code: '6' });
    const locationType =
      index === 0
        ? LocationType.Pickup
        : index === stops.length - 1
          ? LocationType.Dropoff
          : stop.pickup
            ? LocationType.ExtraPickupStop
            : LocationType.ExtraDropoffStop;
    const street = stop.address.trim();
    const town = [stop.city, [stop.state, stop.zip].filter(Boolean).join(' ')]
      .filter(Boolean)
      .join(', ');
    return {
      locationType,
      address: place ? [street, town].filter(Boolean).join(', ') : town,
      latitude: place?.latitude ?? 0,
      longitude: place?.longitude ?? 0,
      city: place?.city ?? (stop.city || null),
      state: place?.state ?? (stop.state || null),
      name: stop.name || town,
      contactName: stop.contactName,
      contactPhone: stop.contactPhone,
      number: stop.number,
      saveLocation: false,
    };
  });

  const opening = pickup.opening!;
  const delivery = dropoff.opening!;
  sources.set('pickupTimestampStart', { segment: opening.segment, element: 2, code: '8' });
  sources.set('expiration', { segment: opening.segment, element: 2, code: '8' });
  sources.set('dropOffTimestampStart', { segment: delivery.segment, element: 2, code: '8' });
  if (pickup.closing)
    sources.set('pickupTimestampEnd', { segment: pickup.closing.segment, element: 2, code: '8' });
  if (dropoff.closing)
    sources.set('dropOffTimestampEnd', {
      segment: dropoff.closing.segment,
      element: 2,
      code: '8',
    });
  sources.set('weight', {
    segment: tender.weightSegment ?? firstPickup.s5,
    element: tender.weightSegment?.tag === 'L3' ? 1 : 3,
    code: '1',
  });
  sources.set('refNumber', { segment: tender.b2, element: 4, code: '1' });

  const body = {
    pickupTimestampStart: opening.instant,
    pickupTimestampEnd: pickup.closing?.instant ?? null,
    pickupTimezone: opening.zone,
    dropOffTimestampStart: delivery.instant,
    dropOffTimestampEnd: dropoff.closing?.instant ?? null,
    dropoffTimezone: delivery.zone,
    // The tender stays on the marketplace until its pickup.
    expiration: opening.instant,
    expirationTimezone: opening.zone,
    loadTypeId: 1,
    loadEquipment: [tender.equipmentId],
    loadAccessories: [NO_ACCESSORY],
    weight: tender.weightLb ?? 0,
    commodity: tender.commodity ?? 'General freight',
    refNumber: tender.shipmentId,
    description: tender.description.slice(0, 2000),
    locations,
  };
  return { body, sources };
}

/** A form error (its field path and message) as an X12 error on the segment the field came from. */
export function errorOfField(
  path: string,
  message: string,
  sources: FieldSources,
  fallback: Segment,
): EdiError {
  const exact = sources.get(path);
  const prefix = [...sources.entries()].find(([field]) => path.startsWith(`${field}.`))?.[1];
  const stopField = /^locations\.(\d+)/.exec(path);
  const stopSource = stopField ? sources.get(`locations.${stopField[1]}.address`) : undefined;
  const source = exact ?? prefix ?? stopSource;
  if (!source) return error(fallback, null, '8', message);
  return error(source.segment, source.element, source.code, message);
}
