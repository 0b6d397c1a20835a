import { useTranslation } from 'react-i18next';
import { PAID_MEASURED_FROM } from '../../../../domain/invoices/payerFigures.ts';
import type { LoadPayerAnswer } from './payers.api.ts';
import './payers.css';

/** The days a payer's median reads as: whole days, rounded. */
export const payerDays = (payer: LoadPayerAnswer): number | null =>
  payer.status === 'measured' && payer.medianDaysToPay !== null
    ? Math.round(payer.medianDaysToPay)
    : null;

/**
 * How the load's shipper pays its carriers' invoices, in one short line: "Pays in ~12 days" (the
 * median over the last year, with the share paid within terms in its title) or "New payer".
 */
export function PayerFigure({ payer }: { payer: LoadPayerAnswer | undefined }) {
  const { t, i18n } = useTranslation();
  if (!payer) return null;
  const days = payerDays(payer);
  if (days === null)
    return (
      <small
        className="payer-figure payer-new"
        title={t('payers.newTitle', { min: PAID_MEASURED_FROM })}
      >
        <i className="pi pi-wallet" aria-hidden="true" /> {t('payers.new')}
      </small>
    );
  const share =
    payer.paidWithinTermsShare === null
      ? null
      : new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en', {
          style: 'percent',
          maximumFractionDigits: 0,
        }).format(payer.paidWithinTermsShare);
  return (
    <small
      className="payer-figure payer-measured"
      title={share === null ? undefined : t('payers.withinTermsTitle', { share })}
    >
      <i className="pi pi-wallet" aria-hidden="true" /> {t('payers.paysIn', { days })}
    </small>
  );
}
