/**
 * The six US time zones a load's times are read in. Abbreviations and offsets depend on the date
 * (daylight saving time), so they are computed for an instant passed in: there is no clock here.
 */
export const timeZoneIds = [
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
  'America/Phoenix',
  'America/Anchorage',
  'Pacific/Honolulu',
] as const;
export type TimeZoneId = (typeof timeZoneIds)[number];

export type TimeZone = { readonly id: TimeZoneId; readonly name: string; readonly label: string };
/** A zone as the catalog answers it: with its abbreviation and UTC offset at a given instant. */
export type TimeZoneAt = TimeZone & { readonly shortName: string; readonly offset: string };

export const timeZones: readonly TimeZone[] = [
  { id: 'America/New_York', name: 'New York', label: 'Eastern Time (New York)' },
  { id: 'America/Chicago', name: 'Chicago', label: 'Central Time (Chicago)' },
  { id: 'America/Los_Angeles', name: 'Los Angeles', label: 'Pacific Time (Los Angeles)' },
  { id: 'America/Phoenix', name: 'Phoenix', label: 'Mountain Time, no DST (Phoenix)' },
  { id: 'America/Anchorage', name: 'Anchorage', label: 'Alaska Time (Anchorage)' },
  { id: 'Pacific/Honolulu', name: 'Honolulu', label: 'Hawaii Time (Honolulu)' },
];

export const isTimeZoneId = (zone: unknown): zone is TimeZoneId =>
  typeof zone === 'string' && (timeZoneIds as readonly string[]).includes(zone);

// A time without a designator would be read in the host's zone: refuse it rather than guess.
const ZONED_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i;

const toInstant = (isoInstant: string): Date => {
  const date = new Date(isoInstant);
  if (!ZONED_INSTANT.test(isoInstant) || Number.isNaN(date.getTime())) {
    throw new RangeError(`Not an ISO 8601 instant with a zone designator: ${isoInstant}`);
  }
  return date;
};

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatter = (zone: string, kind: 'short' | 'parts'): Intl.DateTimeFormat => {
  const cacheKey = `${kind}:${zone}`;
  let format = formatters.get(cacheKey);
  if (!format) {
    format =
      kind === 'short'
        ? new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
        : new Intl.DateTimeFormat('en-US', {
            timeZone: zone,
            hourCycle: 'h23',
            year: 'numeric',
            month: 'numeric',
            day: 'numeric',
            hour: 'numeric',
            minute: 'numeric',
            second: 'numeric',
          });
    formatters.set(cacheKey, format);
  }
  return format;
};

/** Minutes east of UTC of that zone at that instant (Chicago in January: -360). */
export const zoneOffsetMinutes = (zone: string, isoInstant: string): number => {
  const date = toInstant(isoInstant);
  const parts: Record<string, number> = {};
  for (const part of formatter(zone, 'parts').formatToParts(date)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wallClockAsUtc = Date.UTC(
    parts.year,
    parts.month - 1,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
  );
  const wholeSeconds = Math.floor(date.getTime() / 1000) * 1000;
  return Math.round((wallClockAsUtc - wholeSeconds) / 60_000);
};

/** The UTC offset as `±HH:MM` (Chicago in January: '-06:00'; Phoenix always '-07:00'). */
export const zoneOffset = (zone: string, isoInstant: string): string => {
  const minutes = zoneOffsetMinutes(zone, isoInstant);
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
};

/** The zone's abbreviation at that instant (Chicago: 'CST' in January, 'CDT' in July). */
export const zoneShortName = (zone: string, isoInstant: string): string => {
  const name = formatter(zone, 'short')
    .formatToParts(toInstant(isoInstant))
    .find((part) => part.type === 'timeZoneName')?.value;
  // ICU falls back to 'GMT-3' style names for zones without an English abbreviation.
  return name && !/^(GMT|UTC)[+-]/.test(name) ? name : `UTC${zoneOffset(zone, isoInstant)}`;
};

/** Every zone of the list with its abbreviation and offset at that instant. */
export const timeZonesAt = (isoInstant: string): TimeZoneAt[] =>
  timeZones.map((zone) => ({
    ...zone,
    shortName: zoneShortName(zone.id, isoInstant),
    offset: zoneOffset(zone.id, isoInstant),
  }));
