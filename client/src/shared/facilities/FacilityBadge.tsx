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
}: {
  facilityId: string | null | undefined;
  facility: Badge | null | undefined;
}) {
  const { t } = useTranslation();
  if (!facilityId || !facility) return null;
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
