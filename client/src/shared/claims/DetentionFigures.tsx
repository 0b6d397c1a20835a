import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  type DetentionFigures as Figures,
  type LoadDetention,
  MEASURED_FROM,
} from '../../../../domain/claims/detentionFigures.ts';
import { formatDuration } from './DetentionClock.tsx';
import './claims.css';

export type { Figures, LoadDetention };

const percent = (share: number, lng: string) =>
  new Intl.NumberFormat(lng, { style: 'percent', maximumFractionDigits: 0 }).format(share);

/**
 * One line of figures: "Shipper: 1 h 40 min on site · 20% detention · 90% claims approved on time",
 * or "new" while fewer than three stops were measured.
 */
export function detentionFiguresText(
  who: string,
  figures: Figures,
  t: TFunction,
  lng: string,
): string {
  if (
    figures.status === 'new' ||
    figures.timeOnSiteMedian === null ||
    figures.detentionShare === null
  )
    return t('accessorials.figures.new', { who, min: MEASURED_FROM });
  const shared = {
    who,
    time: formatDuration(figures.timeOnSiteMedian, t),
    detention: percent(figures.detentionShare, lng),
  };
  return figures.approvedOnTimeShare === null
    ? t('accessorials.figures.noClaims', shared)
    : t('accessorials.figures.measured', {
        ...shared,
        onTime: percent(figures.approvedOnTimeShare, lng),
      });
}

/** The shipper's figures in one short line, for a marketplace row or card. */
export function ShipperDetention({ detention }: { detention: LoadDetention | undefined }) {
  const { t, i18n } = useTranslation();
  if (!detention) return null;
  return (
    <small className="detention-figures-line muted">
      {detentionFiguresText(
        t('accessorials.figures.shipper'),
        detention.shipper,
        t,
        i18n.resolvedLanguage ?? 'en',
      )}
    </small>
  );
}

/** The shipper's, the pickup's and the delivery's figures, as a load's details show them. */
export function DetentionFiguresList({
  detention,
  headingLevel = 3,
}: {
  detention: LoadDetention | undefined;
  headingLevel?: 2 | 3 | 4;
}) {
  const { t, i18n } = useTranslation();
  if (!detention) return null;
  const lng = i18n.resolvedLanguage ?? 'en';
  const Heading = `h${headingLevel}` as const;
  return (
    <section className="detention-figures" aria-label={t('accessorials.figures.title')}>
      <Heading className="detention-figures-title">{t('accessorials.figures.title')}</Heading>
      <ul>
        {(['shipper', 'pickup', 'delivery'] as const).map((side) => (
          <li key={side} className={detention[side].status === 'new' ? 'muted' : undefined}>
            {detentionFiguresText(t(`accessorials.figures.${side}`), detention[side], t, lng)}
          </li>
        ))}
      </ul>
    </section>
  );
}
