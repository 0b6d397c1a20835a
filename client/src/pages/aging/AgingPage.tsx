import { useAtomValue } from 'jotai';
import { Button } from 'primereact/button';
import { SelectButton } from 'primereact/selectbutton';
import { Skeleton } from 'primereact/skeleton';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAID_MEASURED_FROM, type PayerWindow } from '../../../../domain/invoices/payerFigures.ts';
import { messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { useFormats } from '../../shared/format.ts';
import {
  type AgingAnswer,
  type PayerFiguresAnswer,
  payersApi,
} from '../../shared/payers/payers.api.ts';
import '../../shared/payers/payers.css';
import { notify } from '../../state/common.ts';
import { authUserAtom } from '../../state/session.ts';

type Bucket = AgingAnswer['buckets'][number];

const barClass = (label: Bucket['label']) =>
  label === 'current'
    ? 'aging-bar'
    : label === '1-30' || label === '31-60'
      ? 'aging-bar aging-overdue'
      : 'aging-bar aging-late';

/** The buckets as bars, each as long as its share of the largest amount (CSS, no chart library). */
export function AgingBars({ buckets }: { buckets: Bucket[] }) {
  const { t } = useTranslation();
  const format = useFormats();
  const largest = Math.max(0, ...buckets.map((bucket) => bucket.amount));
  return (
    <div className="aging-chart" role="img" aria-label={t('payers.aging.chartLabel')}>
      {buckets.map((bucket) => (
        <div key={bucket.label} className="aging-bar-row" aria-hidden="true">
          <span>{t(`payers.aging.bucket.${bucket.label}`)}</span>
          <div className="aging-bar-track">
            {bucket.amount > 0 && (
              <div
                className={barClass(bucket.label)}
                style={{ inlineSize: `${(bucket.amount / largest) * 100}%` }}
              />
            )}
          </div>
          <span className="aging-bar-amount">{format.price(bucket.amount)}</span>
        </div>
      ))}
    </div>
  );
}

/** A shipper's own days-to-pay figures, as carriers see them, over 90 or 365 days. */
export function OwnPayerFigures({ organizationId }: { organizationId: string }) {
  const { t, i18n } = useTranslation();
  const format = useFormats();
  const [window, setWindow] = useState<PayerWindow>('365d');
  const [figures, setFigures] = useState<PayerFiguresAnswer | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    setFigures(null);
    payersApi.figures(organizationId, window, controller.signal).then(setFigures, () => {});
    return () => controller.abort();
  }, [organizationId, window]);
  const percent = (share: number | null) =>
    share === null
      ? '—'
      : new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en', {
          style: 'percent',
          maximumFractionDigits: 0,
        }).format(share);
  const days = (value: number | null) =>
    value === null ? '—' : t('payers.figures.days', { days: format.number(value) });
  return (
    <section className="card payer-own-figures" aria-labelledby="payer-own-title">
      <h2 id="payer-own-title">{t('payers.figures.title')}</h2>
      <SelectButton
        value={window}
        onChange={(event) => event.value && setWindow(event.value)}
        options={[
          { label: t('payers.figures.window90'), value: '90d' },
          { label: t('payers.figures.window365'), value: '365d' },
        ]}
        aria-label={t('payers.figures.window')}
      />
      {!figures ? (
        <Skeleton height="4rem" className="mt-3" />
      ) : (
        <>
          {figures.status === 'new' && (
            <p className="muted" role="status">
              {t('payers.figures.new', { min: PAID_MEASURED_FROM })}
            </p>
          )}
          <dl className="mt-3">
            <div>
              <dt>{t('payers.figures.paidCount')}</dt>
              <dd>{format.number(figures.paidCount)}</dd>
            </div>
            <div>
              <dt>{t('payers.figures.median')}</dt>
              <dd>{days(figures.medianDaysToPay)}</dd>
            </div>
            <div>
              <dt>{t('payers.figures.p90')}</dt>
              <dd>{days(figures.p90DaysToPay)}</dd>
            </div>
            <div>
              <dt>{t('payers.figures.withinTerms')}</dt>
              <dd>{percent(figures.paidWithinTermsShare)}</dd>
            </div>
            <div>
              <dt>{t('payers.figures.overdue')}</dt>
              <dd>{figures.overdueAmount === null ? '—' : format.price(figures.overdueAmount)}</dd>
            </div>
          </dl>
        </>
      )}
    </section>
  );
}

/**
 * Aging (`/insights/aging`): the open invoices of the user's organization by days past due, a
 * carrier's receivables or a shipper's payables, as bars and a table, with a CSV export; a shipper
 * also sees its own days-to-pay figures as carriers see them.
 */
export default function AgingPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const format = useFormats();
  const user = useAtomValue(authUserAtom);
  const [aging, setAging] = useState<AgingAnswer | null>(null);
  const [failed, setFailed] = useState(false);
  const [downloading, setDownloading] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    payersApi.aging(controller.signal).then(setAging, () => {
      if (!controller.signal.aborted) setFailed(true);
    });
    return () => controller.abort();
  }, []);

  const download = async () => {
    setDownloading(true);
    try {
      const blob = await payersApi.agingCsv();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `aging-${aging?.side ?? 'invoices'}-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1_000);
    } catch (error) {
      notify('error', messageOf(error));
    } finally {
      setDownloading(false);
    }
  };

  const total = (aging?.buckets ?? []).reduce(
    (sum, bucket) => ({ count: sum.count + bucket.count, amount: sum.amount + bucket.amount }),
    { count: 0, amount: 0 },
  );
  const shipper = user?.organization?.type === 'Shipper' ? user.organization.id : null;

  return (
    <section className="page aging-page">
      <header className="page-header">
        <h1>{t(titleKey, { id: '' })}</h1>
        <Button
          type="button"
          outlined
          icon="pi pi-download"
          label={t('payers.aging.export')}
          onClick={download}
          loading={downloading}
          disabled={!aging}
        />
      </header>
      {failed ? (
        <div className="card">
          <p className="muted">{t('payers.aging.failed')}</p>
        </div>
      ) : !aging ? (
        <div className="card">
          <Skeleton height="10rem" />
        </div>
      ) : (
        <section className="card" aria-labelledby="aging-title">
          <h2 id="aging-title">
            {t(aging.side === 'receivable' ? 'payers.aging.receivable' : 'payers.aging.payable')}
          </h2>
          <AgingBars buckets={aging.buckets} />
          <table className="aging-table">
            <thead>
              <tr>
                <th scope="col">{t('payers.aging.label')}</th>
                <th scope="col">{t('payers.aging.count')}</th>
                <th scope="col">{t('payers.aging.amount')}</th>
              </tr>
            </thead>
            <tbody>
              {aging.buckets.map((bucket) => (
                <tr key={bucket.label}>
                  <th scope="row">{t(`payers.aging.bucket.${bucket.label}`)}</th>
                  <td className="tabular">{format.number(bucket.count)}</td>
                  <td className="tabular">{format.price(bucket.amount)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{t('payers.aging.total')}</th>
                <td className="tabular">{format.number(total.count)}</td>
                <td className="tabular">{format.price(total.amount)}</td>
              </tr>
            </tfoot>
          </table>
        </section>
      )}
      {shipper && <OwnPayerFigures organizationId={shipper} />}
    </section>
  );
}
