import { useTranslation } from 'react-i18next';
import { compactTermsText } from './TermsSummary.tsx';
import { type AccessorialTerms, counterTermsOf, sameTermsAs, termsOf } from './terms.ts';
import './terms.css';

/**
 * An offer row's terms: its own where they differ from the load's (else "Same terms as the load"),
 * and the terms the shipper's counter proposed while it waits. `loadTerms` undefined: the load's are
 * not known here, so the offer's own are shown whenever it has some.
 */
export function OfferTermsCell({
  offer,
  loadTerms,
  countered,
}: {
  offer: unknown;
  loadTerms?: AccessorialTerms | null;
  /** Whether the counter is still on the table (its terms are shown only then). */
  countered: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const own = termsOf(offer);
  const counter = countered ? counterTermsOf(offer) : null;
  const differs = own !== null && (loadTerms === undefined || !sameTermsAs(own, loadTerms));
  return (
    <span className="offer-terms-cell">
      {differs ? (
        <span className="offer-terms-own">
          <small className="offer-terms-label">{t('accessorials.terms.offerTerms')}</small>
          <span className="terms-compact tabular">{compactTermsText(own, t, lng)}</span>
        </span>
      ) : (
        <small className="muted">{t('accessorials.terms.sameAsLoad')}</small>
      )}
      {counter && (
        <span className="offer-terms-counter">
          <small className="offer-terms-label">{t('accessorials.terms.counterTerms')}</small>
          <span className="terms-compact tabular">{compactTermsText(counter, t, lng)}</span>
        </span>
      )}
    </span>
  );
}
