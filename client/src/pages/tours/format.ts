import { timeZonesAt } from '../../../../domain/catalog.ts';

/**
 * Times show with their zone's short name: the date and time in the user's language, read in
 * the load's zone, then the US abbreviation (CST, EDT) that dispatchers use whatever the language.
 */
export function formatZoned(
  iso: string | null | undefined,
  zone: string | null | undefined,
  lng: string,
): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const known = zone
    ? timeZonesAt(date.toISOString()).find((entry) => entry.id === zone)
    : undefined;
  const text = new Intl.DateTimeFormat(lng, {
    timeZone: known?.id,
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(date);
  return known ? `${text} ${known.shortName}` : formatLocal(iso, lng);
}

/** A time in the viewer's own zone, with the zone's short name. */
export function formatLocal(iso: string | null | undefined, lng: string, withDate = true): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const text = new Intl.DateTimeFormat(lng, {
    ...(withDate ? { month: 'short', day: 'numeric' } : {}),
    hour: 'numeric',
    minute: '2-digit',
  }).format(date);
  // The zone's US short name (CST, EDT) in every language, as on the load times; "GMT-6" where it has none.
  const zone = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
    .formatToParts(date)
    .find((part) => part.type === 'timeZoneName')?.value;
  return zone ? `${text} ${zone}` : text;
}

/** Prices with the dollar sign and two decimals. */
export const formatPrice = (value: number | null | undefined): string =>
  value === null || value === undefined
    ? ''
    : `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export const formatMiles = (value: number): string =>
  `${Math.round(value).toLocaleString('en-US')} mi`;

/** "Chicago, IL" from a place, falling back to its address. */
export const cityOf = (place: {
  city?: string | null;
  state?: string | null;
  address?: string | null;
}): string => [place.city, place.state].filter(Boolean).join(', ') || place.address || '';

/** The tour id of a page: `/track/tour/<id>` or `/track/tour?id=<id>`. */
export function tourIdOf(
  params: Record<string, string | undefined>,
  search: string,
): string | null {
  if (params.id) return params.id;
  return new URLSearchParams(search).get('id');
}
