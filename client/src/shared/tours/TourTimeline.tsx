import { useTranslation } from 'react-i18next';
import { formatLocal } from '../format.ts';
import type { TimelineEntry, TimelineType } from './tours.api.ts';
import './tours.css';

const icons: Record<TimelineType, string> = {
  status: 'pi-flag',
  note: 'pi-comment',
  arrived: 'pi-map-marker',
  departed: 'pi-directions',
  delay: 'pi-clock',
  issue: 'pi-exclamation-triangle',
};

/** A tour's timeline, newest first: what happened, who did it and when. */
export function TourTimeline({
  entries,
  loading = false,
  compact = false,
}: {
  entries: TimelineEntry[];
  loading?: boolean;
  compact?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  if (loading && entries.length === 0) {
    return (
      <ul
        className="tour-timeline is-loading"
        aria-busy="true"
        aria-label={t('tours.timeline.title')}
      >
        {[0, 1, 2].map((index) => (
          <li key={index} className="skeleton-line" />
        ))}
      </ul>
    );
  }
  if (entries.length === 0)
    return <p className="muted tour-timeline-empty">{t('tours.timeline.empty')}</p>;
  const newestFirst = [...entries].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <ol
      className={`tour-timeline${compact ? ' is-compact' : ''}`}
      aria-label={t('tours.timeline.title')}
    >
      {newestFirst.map((entry) => (
        <li key={entry.id} className={`tour-timeline-item type-${entry.type}`}>
          <span className="tour-timeline-icon" aria-hidden="true">
            <i className={`pi ${icons[entry.type] ?? 'pi-circle'}`} />
          </span>
          <div className="tour-timeline-body">
            <div className="tour-timeline-head">
              <strong>
                {t(`tours.timeline.types.${entry.type}`, { defaultValue: entry.type })}
              </strong>
              <time className="tabular muted" dateTime={entry.at}>
                {formatLocal(entry.at, lng)}
              </time>
            </div>
            {entry.message && <p>{entry.message}</p>}
            <span className="muted tour-timeline-who">
              {entry.user?.name
                ? t('tours.timeline.by', { name: entry.user.name })
                : t('tours.timeline.system')}
            </span>
          </div>
        </li>
      ))}
    </ol>
  );
}
