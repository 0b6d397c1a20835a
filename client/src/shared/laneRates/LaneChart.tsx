import { Chart } from 'primereact/chart';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export interface LaneChartSeries {
  label: string;
  /** One value per month of `months`; null where too few agreed prices stand behind it. */
  values: (number | null)[];
}

interface Props {
  months: string[];
  series: LaneChartSeries[];
  /** How a value reads on the axis and in the tooltip. */
  format: (value: number) => string;
  ariaLabel: string;
  height?: string;
  legend?: boolean;
}

const palette = [
  '#6366f1',
  '#14b8a6',
  '#f59e0b',
  '#ef4444',
  '#8b5cf6',
  '#0ea5e9',
  '#84cc16',
  '#ec4899',
];

/**
 * A line chart of monthly medians (PrimeReact's Chart over chart.js). This module and chart.js are
 * loaded only by the screens that show it (a lazy import), never with the first page. Right to left,
 * the months run from the right and the value axis stands on the right.
 */
export default function LaneChart({
  months,
  series,
  format,
  ariaLabel,
  height = '9rem',
  legend = false,
}: Props) {
  const { i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? 'en';
  const rtl = i18n.dir(locale) === 'rtl';
  const labels = useMemo(
    () =>
      months.map((month) =>
        new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' }).format(
          new Date(`${month}-01T00:00:00Z`),
        ),
      ),
    [months, locale],
  );
  const data = useMemo(
    () => ({
      labels,
      datasets: series.map((line, index) => ({
        label: line.label,
        data: line.values,
        borderColor: palette[index % palette.length],
        backgroundColor: palette[index % palette.length],
        tension: 0.3,
        spanGaps: true,
        pointRadius: 3,
        borderWidth: 2,
      })),
    }),
    [labels, series],
  );
  const options = useMemo(
    () => ({
      // Resizing follows the container through ResizeObserver; without one (an old browser, jsdom) the chart keeps its first size.
      responsive: typeof ResizeObserver !== 'undefined',
      maintainAspectRatio: false,
      animation: false as const,
      locale,
      plugins: {
        legend: { display: legend, rtl, position: 'bottom' as const, labels: { boxWidth: 12 } },
        tooltip: {
          rtl,
          callbacks: {
            label: (item: { dataset: { label?: string }; parsed: { y: number | null } }) =>
              `${legend ? `${item.dataset.label}: ` : ''}${item.parsed.y === null ? '—' : format(item.parsed.y)}`,
          },
        },
      },
      scales: {
        x: { reverse: rtl, grid: { display: false }, ticks: { maxRotation: 0, autoSkip: true } },
        y: {
          position: rtl ? ('right' as const) : ('left' as const),
          ticks: { maxTicksLimit: 4, callback: (value: number | string) => format(Number(value)) },
        },
      },
    }),
    [format, legend, locale, rtl],
  );
  return (
    <div className="lane-chart" style={{ height }}>
      <Chart
        type="line"
        data={data}
        options={options}
        ariaLabel={ariaLabel}
        style={{ height: '100%' }}
      />
    </div>
  );
}
