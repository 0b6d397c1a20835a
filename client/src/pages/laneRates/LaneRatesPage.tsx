import { Skeleton } from 'primereact/skeleton';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/pageProps.ts';
import { useFormats } from '../../shared/format.ts';
import { laneRatesApi, type TopLane, type TopLanes } from '../../shared/laneRates/laneRates.api.ts';
import '../../shared/laneRates/laneRates.css';

const LaneChart = lazy(() => import('../../shared/laneRates/LaneChart.tsx'));

/**
 * Lane rates for dispatchers (`/insights/lanes`): the busiest lanes of the last twelve months by
 * agreed prices, with their median price and price per mile, and the median price per mile of each
 * month as one line per lane (GET insights/lanes/top).
 */
export default function LaneRatesPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const format = useFormats();
  const [top, setTop] = useState<TopLanes | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    laneRatesApi.top(12, controller.signal).then(setTop, () => {
      if (!controller.signal.aborted) setFailed(true);
    });
    return () => controller.abort();
  }, []);

  // US place names are written left to right, in Arabic too (a <bdi> keeps them so): the arrow always points right.
  const name = (lane: TopLane) =>
    `${format.place(lane.origin)} → ${format.place(lane.destination)}`;
  const charted = (top?.lanes ?? [])
    .filter((lane) => lane.series.some((point) => point.medianPerMile !== null))
    .slice(0, 5);

  return (
    <section className="page lane-rates-page">
      <header className="page-header">
        <h1>{t(titleKey, { id: '' })}</h1>
      </header>
      <p className="muted">{t('lanes.pageIntro')}</p>
      {failed ? (
        <div className="card">
          <p className="muted">{t('lanes.failed')}</p>
        </div>
      ) : !top ? (
        <div className="card">
          <Skeleton height="14rem" className="mb-3" />
          <Skeleton height="10rem" />
        </div>
      ) : top.lanes.length === 0 ? (
        <div className="card">
          <p className="muted" role="status">
            {t('lanes.noLanes')}
          </p>
        </div>
      ) : (
        <>
          {charted.length > 0 && (
            <section className="card lane-top-chart" aria-labelledby="lane-top-chart-title">
              <h2 id="lane-top-chart-title">{t('lanes.perMileOverTime')}</h2>
              <Suspense fallback={<Skeleton height="16rem" />}>
                <LaneChart
                  months={top.months}
                  series={charted.map((lane) => ({
                    label: name(lane),
                    values: lane.series.map((point) => point.medianPerMile),
                  }))}
                  format={(value) => format.price(value)}
                  ariaLabel={t('lanes.perMileOverTime')}
                  height="16rem"
                  legend
                />
              </Suspense>
              <p className="field-hint">{t('lanes.chartHint')}</p>
            </section>
          )}
          <section className="card" aria-labelledby="lane-top-title">
            <h2 id="lane-top-title">{t('lanes.topTitle')}</h2>
            <table className="lane-top-table">
              <thead>
                <tr>
                  <th scope="col">{t('lanes.lane')}</th>
                  <th scope="col" className="num">
                    {t('lanes.agreed')}
                  </th>
                  <th scope="col" className="num hide-phone">
                    {t('lanes.medianPrice')}
                  </th>
                  <th scope="col" className="num">
                    {t('lanes.medianPerMile')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {top.lanes.map((lane) => (
                  <tr key={name(lane)}>
                    <td>
                      <bdi>{name(lane)}</bdi>
                    </td>
                    <td className="num">{lane.count}</td>
                    <td className="num hide-phone">
                      {lane.medianPrice === null ? '—' : format.price(lane.medianPrice)}
                    </td>
                    <td className="num">
                      {lane.medianPerMile === null ? '—' : format.price(lane.medianPerMile)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}
    </section>
  );
}
