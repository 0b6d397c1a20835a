import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { formatDuration } from '../claims/DetentionClock.tsx';
import { FIGURES_FROM, type FacilityBadge as Badge } from './facilities.api.ts';

/**
 * A stop's facility in one line: its median time on site and the visits behind it ("figures from
 * three" before that), and a link to its page.
 */
export function FacilityBadge({
  facilityId,
  facility,
  compact = false,
}: {
  facilityId: string | null | undefined;
  facility: Badge | null | undefined;
  /** A table cell's short form: the median alone as the link (its full words for screen readers), nothing under three visits. */
  compact?: boolean;
}) {
  const { t } = useTranslation();
  if (!facilityId || !facility) return null;
  if (compact) {
    if (facility.timeOnSiteMedian === null) return null;
    const time = formatDuration(facility.timeOnSiteMedian, t);
    const words = t('facilities.badge', { time, visits: facility.visits });
    return (
      <Link
        href={`/facilities/${facilityId}`}
        className="facility-badge facility-badge-compact"
        aria-label={`${words} · ${t('facilities.open')}`}
        title={words}
        onClick={(event) => event.stopPropagation()}
      >
        <i className="pi pi-building" aria-hidden="true" /> {time}
      </Link>
    );
  }
  return (
    <div className="facility-badge muted">
      <i className="pi pi-building" aria-hidden="true" />{' '}
      {facility.timeOnSiteMedian === null
        ? t('facilities.badgeNew', { visits: facility.visits, min: FIGURES_FROM })
        : t('facilities.badge', {
            time: formatDuration(facility.timeOnSiteMedian, t),
            visits: facility.visits,
          })}{' '}
      · <Link href={`/facilities/${facilityId}`}>{t('facilities.open')}</Link>
    </div>
  );
}
