import { DateTime } from 'luxon';

/**
 * The wall time `YYYY-MM-DDTHH:mm` of an instant in a zone (the form's internal format). Apart from
 * the display formats, so that the lists that only show loads do not load luxon.
 */
export const wallTime = (iso: string | null | undefined, zone: string): string =>
  iso ? DateTime.fromISO(iso, { zone: 'utc' }).setZone(zone).toFormat("yyyy-MM-dd'T'HH:mm") : '';
