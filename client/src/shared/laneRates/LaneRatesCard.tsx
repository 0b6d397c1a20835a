import { Skeleton } from 'primereact/skeleton';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trailerTypes } from '../../../../domain/catalog.ts';
import { useFormats } from '../format.ts';
import { laneRatesApi, type LanePoint, type LaneRates } from './laneRates.api.ts';
import './laneRates.css';

// chart.js comes with the chart, only once a lane has figures to draw.
const LaneChart = lazy(() => import('./LaneChart.tsx'));

interface Props {
  origin: LanePoint | null;
  destination: LanePoint | null;
  /** The load's trailer types: the figures are for the first when there is exactly one, else for any. */
  equipment: readonly number[];
  /** A heading id prefix, unique on the page. */
  id: string;
}

const known = (point: LanePoint | null): point is LanePoint =>
  point !== null &&
  Number.isFinite(point.latitude) &&
  Number.isFinite(point.longitude) &&
  !(point.latitude === 0 && point.longitude === 0);

/**
 * "Typical price on this lane": the middle half of the agreed prices (p25 to p75), their median and
 * how many stand behind them, the same per mile, and the last twelve months' medians as a small line
 * chart; a quiet line when fewer than five agreed prices are known (GET insights/lanes).
 */
export function LaneRatesCard({ origin, destination, equipment, id }: Props) {
  const { t } = useTranslation();
  const format = useFormats();
  const [rates, setRates] = useState<LaneRates | null>(null);
  const [failed, setFailed] = useState(false);
  const single = equipment.length === 1 ? equipment[0]! : null;
  const ready = known(origin) && known(destination);
  const key = ready
    ? `${origin.latitude},${origin.longitude}>${destination.latitude},${destination.longitude}/${single ?? ''}`
    : '';

  useEffect(() => {
    if (!ready) return;
    const controller = new AbortController();
    setRates(null);
    setFailed(false);
    laneRatesApi
      .lane(origin, destination, single, controller.signal)
      .then(setRates, (error: unknown) => {
        if (!controller.signal.aborted) setFailed(Boolean(error));
      });
    return () => controller.abort();
  }, [key]);

  if (!ready) return null;
  const equipmentName =
    single !== null ? (trailerTypes.find((type) => type.id === single)?.name ?? null) : null;
  const headingId = `${id}-lane-rates`;
  return (
    <section
      className="card lane-rates"
      aria-labelledby={headingId}
      aria-busy={!rates && !failed}
      data-testid="lane-rates"
    >
      <h3 id={headingId} className="lane-rates-title">
        <i className="pi pi-chart-line" aria-hidden="true" /> {t('lanes.typical')}
      </h3>
      <p className="lane-rates-scope muted">
        {equipmentName ? t('lanes.scopeEquipment', { equipment: equipmentName }) : t('lanes.scope')}
      </p>
      {failed ? (
        <p className="muted">{t('lanes.failed')}</p>
      ) : !rates ? (
        <Skeleton height="5rem" />
      ) : rates.price.median === null ? (
        <p className="lane-rates-empty muted" role="status">
          {t('lanes.notEnough')}
        </p>
      ) : (
        <>
          <dl className="lane-rates-figures">
            <div>
              <dt>{t('lanes.band')}</dt>
              <dd className="tabular" data-testid="lane-band">
                <bdi>{format.price(rates.price.p25)}</bdi> –{' '}
                <bdi>{format.price(rates.price.p75)}</bdi>
              </dd>
            </div>
            <div>
              <dt>{t('lanes.median')}</dt>
              <dd className="tabular" data-testid="lane-median">
                <bdi>{format.price(rates.price.median)}</bdi>
              </dd>
            </div>
            {rates.perMile.median !== null && (
              <div>
                <dt>{t('lanes.perMile')}</dt>
                <dd className="tabular" data-testid="lane-per-mile">
                  {t('lanes.perMileValue', {
                    value: format.price(rates.perMile.median),
                    low: format.price(rates.perMile.p25),
                    high: format.price(rates.perMile.p75),
                  })}
                </dd>
              </div>
            )}
          </dl>
          <p className="lane-rates-count muted" data-testid="lane-count">
            {t('lanes.count', { count: rates.count })}
          </p>
          <Suspense fallback={<Skeleton height="9rem" />}>
            <LaneChart
              months={rates.series.map((point) => point.month)}
              series={[
                { label: t('lanes.median'), values: rates.series.map((point) => point.median) },
              ]}
              format={(value) => format.price(value).replace(/\.00$/, '')}
              ariaLabel={t('lanes.chartLabel')}
            />
          </Suspense>
          <p className="field-hint">{t('lanes.chartHint')}</p>
        </>
      )}
    </section>
  );
}
