import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatPrice } from '../format.ts';
import { type AccessorialTerms, termsOf } from './terms.ts';
import './terms.css';

type T = TFunction;

/** One line for a table cell or a card: free time, detention and its cap (or none), TONU; "No terms" without. */
export function compactTermsText(terms: AccessorialTerms | null, t: T, lng: string): string {
  if (!terms) return t('accessorials.terms.none');
  const capped = terms.detentionCap !== null && terms.detentionCap !== undefined;
  return t(capped ? 'accessorials.terms.compact' : 'accessorials.terms.compactNoCap', {
    pickup: formatNumber(terms.freeTimeHours.pickup, lng) || '0',
    delivery: formatNumber(terms.freeTimeHours.delivery, lng) || '0',
    rate: formatPrice(terms.detentionPerHour, lng),
    cap: formatPrice(terms.detentionCap, lng),
    tonu: formatPrice(terms.tonu, lng),
  });
}

/** Every term as a line of its own, as the load's details and the offer screen list them. */
export function termsLines(terms: AccessorialTerms, t: T, lng: string): string[] {
  return [
    t('accessorials.terms.free', {
      pickup: formatNumber(terms.freeTimeHours.pickup, lng) || '0',
      delivery: formatNumber(terms.freeTimeHours.delivery, lng) || '0',
    }),
    terms.detentionCap === null || terms.detentionCap === undefined
      ? t('accessorials.terms.detentionNoCap', { rate: formatPrice(terms.detentionPerHour, lng) })
      : t('accessorials.terms.detention', {
          rate: formatPrice(terms.detentionPerHour, lng),
          cap: formatPrice(terms.detentionCap, lng),
        }),
    t('accessorials.terms.grace', { minutes: formatNumber(terms.graceMinutes, lng) || '0' }),
    t('accessorials.terms.tonuLine', { amount: formatPrice(terms.tonu, lng) }),
    t('accessorials.terms.layover', { amount: formatPrice(terms.layoverPerDay, lng) }),
    terms.lumper === 'shipper'
      ? t('accessorials.terms.lumperByShipper')
      : t('accessorials.terms.lumperByCarrier'),
    t('accessorials.terms.window', {
      hours: formatNumber(terms.disputeWindowHours, lng) || '0',
    }),
  ];
}

/** The compact summary of whatever carries terms (a row, a load, an offer). */
export function TermsCompact({ of }: { of: unknown }) {
  const { t, i18n } = useTranslation();
  const terms = termsOf(of);
  return (
    <span className={`terms-compact tabular${terms ? '' : ' muted'}`}>
      {compactTermsText(terms, t, i18n.resolvedLanguage ?? 'en')}
    </span>
  );
}

/** The terms in full under a heading; "No terms" for a load or offer without. */
export function TermsDetails({
  of,
  title,
  headingLevel = 3,
}: {
  of: unknown;
  title?: string;
  headingLevel?: 2 | 3 | 4;
}) {
  const { t, i18n } = useTranslation();
  const terms = termsOf(of);
  const Heading = `h${headingLevel}` as const;
  const heading = title ?? t('accessorials.terms.title');
  return (
    <section className="terms-details" aria-label={heading}>
      <Heading className="terms-title">{heading}</Heading>
      {terms ? (
        <ul className="terms-lines tabular">
          {termsLines(terms, t, i18n.resolvedLanguage ?? 'en').map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : (
        <p className="muted terms-none">{t('accessorials.terms.none')}</p>
      )}
    </section>
  );
}
