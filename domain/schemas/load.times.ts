/** Reading a load's times: the specification's server format or ISO 8601, in the stop's zone. */
import { DateTime, IANAZone } from 'luxon';
import { timeZoneIds } from '../catalog.ts';

const SERVER_FORMAT = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}):(\d{2})\s*([AaPp])\.?[Mm]\.?$/;
const ISO_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

const HOUR_MS = 3_600_000;
const MAX_CACHED_HOURS = 100_000;

/**
 * A zone that remembers its UTC offset per UTC hour. Asking ICU for an offset costs tens of
 * microseconds, and a batch import reads thousands of times; the six zones only change offset on
 * whole UTC hours, so the hour's offset is the offset of every instant in it.
 */
class HourlyCachedZone extends IANAZone {
  readonly #offsets = new Map<number, number>();
  override offset(ts: number): number {
    const hour = Math.floor(ts / HOUR_MS);
    let offset = this.#offsets.get(hour);
    if (offset === undefined) {
      if (this.#offsets.size >= MAX_CACHED_HOURS) this.#offsets.clear();
      offset = super.offset(ts);
      this.#offsets.set(hour, offset);
    }
    return offset;
  }
}
const cachedZones = new Map<string, IANAZone>(
  timeZoneIds.map((id) => [id, new HourlyCachedZone(id)]),
);
const luxonZone = (zone: string): IANAZone | string => cachedZones.get(zone) ?? zone;

/**
 * An ISO instant in UTC (`2026-12-01T16:00:00.000Z`) for a load time, or null when unreadable.
 * Reads the specification's server format `MM/DD/YYYY hh:mm a` (one-digit month, day and hour too)
 * and ISO 8601 date-times (the internal `YYYY-MM-DDTHH:mm` included): a time without an offset is
 * read in `zone`, one with an offset (or Z) stands as sent. A wall time skipped by a daylight saving
 * change moves forward by the gap.
 */
export const parseLoadTime = (value: string, zone: string): string | null => {
  // A body's times are read twice (the date rules, then the output): the second read is a lookup.
  const key = `${zone} ${value}`;
  const known = readTimes.get(key);
  if (known !== undefined) return known;
  const instant = readLoadTime(value, zone);
  if (readTimes.size >= 1024) readTimes.clear();
  readTimes.set(key, instant);
  return instant;
};
const readTimes = new Map<string, string | null>();

const readLoadTime = (value: string, zone: string): string | null => {
  const text = value.trim();
  let time: DateTime | null = null;
  const server = SERVER_FORMAT.exec(text);
  if (server) {
    const [, month, day, year, hour, minute, meridiem] = server;
    const hour12 = Number(hour);
    if (hour12 < 1 || hour12 > 12) return null;
    time = DateTime.fromObject(
      {
        year: Number(year),
        month: Number(month),
        day: Number(day),
        hour: (hour12 % 12) + (meridiem.toLowerCase() === 'p' ? 12 : 0),
        minute: Number(minute),
      },
      { zone: luxonZone(zone) },
    );
  } else {
    const iso = ISO_DATE_TIME.exec(text);
    if (iso)
      time = DateTime.fromISO(text.replace(' ', 'T'), { zone: iso[1] ? 'utc' : luxonZone(zone) });
  }
  return time?.isValid ? new Date(time.toMillis()).toISOString() : null;
};

/** Whether a load time carries its own offset (then it needs no zone to be read). */
export const hasExplicitOffset = (value: string): boolean =>
  Boolean(ISO_DATE_TIME.exec(value.trim())?.[1]);

// Minute precision: a time picked for the current minute is not "before now".
export const startOfMinute = (nowIso: string): number =>
  Math.floor(Date.parse(nowIso) / 60_000) * 60_000;
