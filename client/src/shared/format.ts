/**
 * The display formats of every screen: money, dates and times, distances, weights and numbers, in
 * the user's language (`lng`). Times show with their zone's US abbreviation (CST, EDT), which
 * dispatchers use whatever the language. An empty value formats as '' (the screens show their own
 * placeholder); `useFormats` binds the language and shows '—' instead.
 */
import { useTranslation } from 'react-i18next';
import { isTimeZoneId, trailerTypes, zoneShortName } from '../../../domain/catalog.ts';

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(lng: string, kind: 'money' | 'whole'): Intl.NumberFormat {
  const key = `${kind}:${lng}`;
  let format = cache.get(key) as Intl.NumberFormat | undefined;
  if (!format) {
    format = new Intl.NumberFormat(
      lng,
      kind === 'money'
        ? { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }
        : { maximumFractionDigits: 0 },
    );
    cache.set(key, format);
  }
  return format;
}

const isEmpty = (value: number | null | undefined): value is null | undefined =>
  value === null || value === undefined || !Number.isFinite(value);

const dateOf = (iso: string | null | undefined): Date | null => {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** A price in US dollars with two decimals, as the language writes it ('$1,850.00' in English). */
export const formatPrice = (value: number | null | undefined, lng: string): string =>
  isEmpty(value) ? '' : numberFormat(lng, 'money').format(value);

/** A whole number with the language's grouping ('12,500' in English). */
export const formatNumber = (value: number | null | undefined, lng: string): string =>
  isEmpty(value) ? '' : numberFormat(lng, 'whole').format(value);

/** A time in the viewer's own zone, with the zone's short name. */
export function formatLocal(iso: string | null | undefined, lng: string, withDate = true): string {
  const date = dateOf(iso);
  if (!date) return '';
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

/**
 * A time read in a load's zone ('Dec 3, 8:00 AM CST'); in the viewer's own zone when the zone is not
 * one of the catalog's.
 */
export function formatZoned(
  iso: string | null | undefined,
  zone: string | null | undefined,
  lng: string,
): string {
  const date = dateOf(iso);
  if (!date) return '';
  if (!zone || !isTimeZoneId(zone)) return formatLocal(iso, lng);
  const text = new Intl.DateTimeFormat(lng, {
    timeZone: zone,
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(date);
  return `${text} ${zoneShortName(zone, date.toISOString())}`;
}

/** A day without its time ('Mar 3, 2026'). */
export function formatDate(iso: string | null | undefined, lng: string): string {
  const date = dateOf(iso);
  if (!date) return '';
  const key = `date:${lng}`;
  let format = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format = new Intl.DateTimeFormat(lng, { year: 'numeric', month: 'short', day: 'numeric' });
    cache.set(key, format);
  }
  return format.format(date);
}

/** "Chicago, IL" from a place, falling back to its address. */
export const cityOf = (place: {
  city?: string | null;
  state?: string | null;
  address?: string | null;
}): string => [place.city, place.state].filter(Boolean).join(', ') || place.address || '';

/** The formats above in the user's language, with '—' for a missing value, and units translated. */
export function useFormats() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const or = (text: string): string => text || '—';
  return {
    lng,
    time: (iso: string | null | undefined, zone?: string | null): string =>
      or(formatZoned(iso, zone, lng)),
    price: (value: number | null | undefined): string => or(formatPrice(value, lng)),
    number: (value: number | null | undefined): string => or(formatNumber(value, lng)),
    miles: (value: number | null | undefined): string =>
      isEmpty(value) ? '—' : t('marketplace.units.miles', { value: formatNumber(value, lng) }),
    weight: (value: number | null | undefined): string =>
      isEmpty(value) ? '—' : t('marketplace.units.lbs', { value: formatNumber(value, lng) }),
    place: (
      place:
        | { city?: string | null; state?: string | null; address?: string | null }
        | null
        | undefined,
    ): string => or(place ? cityOf(place) : ''),
    equipment: (ids: readonly number[] | null | undefined): string =>
      or(
        (ids ?? [])
          .map((id) => trailerTypes.find((type) => type.id === id)?.name ?? String(id))
          .join(', '),
      ),
    accessory: (id: number): string => t(`marketplace.accessories.${id}` as never) as string,
  };
}
