import { useTranslation } from 'react-i18next';
import {
  accessories,
  isTimeZoneId,
  trailerTypes,
  zoneShortName,
} from '../../../../domain/catalog.ts';

/**
 * Display formats of the marketplace screens: times with their zone's short name, prices
 * with the dollar sign and two decimals, miles and lbs, in the user's language.
 */
export function useFormats() {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? 'en';
  const money = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });

  /** '12/03, 8:00 AM CST' in the load's zone. */
  const time = (iso: string | null | undefined, zone?: string | null): string => {
    if (!iso) return '—';
    const shown = zone && isTimeZoneId(zone) ? zone : undefined;
    const text = new Intl.DateTimeFormat(locale, {
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: shown,
    }).format(new Date(iso));
    return shown ? `${text} ${zoneShortName(shown, new Date(iso).toISOString())}` : text;
  };
  return {
    time,
    price: (value: number | null | undefined): string =>
      value === null || value === undefined ? '—' : money.format(value),
    miles: (value: number | null | undefined): string =>
      value === null || value === undefined || !Number.isFinite(value)
        ? '—'
        : t('marketplace.units.miles', { value: whole.format(value) }),
    weight: (value: number | null | undefined): string =>
      value === null || value === undefined
        ? '—'
        : t('marketplace.units.lbs', { value: whole.format(value) }),
    place: (
      place:
        | { city?: string | null; state?: string | null; address?: string | null }
        | null
        | undefined,
    ): string =>
      place ? [place.city, place.state].filter(Boolean).join(', ') || place.address || '—' : '—',
    equipment: (ids: readonly number[] | null | undefined): string =>
      (ids ?? [])
        .map((id) => trailerTypes.find((type) => type.id === id)?.name ?? String(id))
        .join(', ') || '—',
    accessory: (id: number): string => t(`marketplace.accessories.${id}` as never) as string,
  };
}

export const accessoryIds = accessories.map((entry) => entry.id);
