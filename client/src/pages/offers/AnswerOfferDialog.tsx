import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputNumber } from 'primereact/inputnumber';
import { useTranslation } from 'react-i18next';
import { useFormats } from '../../shared/format.ts';
import { OfferStatus, type OfferRow } from './offers.api.ts';
import { TermsFields } from '../../shared/terms/TermsFields.tsx';
import { TermsDetails } from '../../shared/terms/TermsSummary.tsx';
import { type TermsFormValues, termsOf } from '../../shared/terms/terms.ts';

/**
 * The shipper's answer to one offer: accept, decline, or counter with a price; the terms the offer
 * proposed, and a counter-offer's own terms when it answers them.
 */
export function AnswerOfferDialog({
  confirming,
  counterPrice,
  counterError,
  busy,
  onCounterPrice,
  onCounterError,
  onHide,
  onAnswer,
  counterTerms,
  onCounterTerms,
}: {
  confirming: { row: OfferRow; status: number } | null;
  counterPrice: number | null;
  counterError: string | null;
  busy: boolean;
  onCounterPrice: (price: number | null) => void;
  onCounterError: (error: string | null) => void;
  onHide: () => void;
  onAnswer: () => void;
  /** The counter-offer's terms (off: none proposed); absent where the screen offers none. */
  counterTerms?: TermsFormValues;
  onCounterTerms?: (terms: TermsFormValues) => void;
}) {
  const { t } = useTranslation();
  const format = useFormats();
  return (
    <Dialog
      header={
        confirming
          ? t(
              `marketplace.offers.confirm${confirming.status === OfferStatus.Accepted ? 'Accept' : confirming.status === OfferStatus.Declined ? 'Decline' : 'Counter'}`,
              { carrier: confirming.row.carrier.name },
            )
          : ''
      }
      visible={confirming !== null}
      onHide={onHide}
      style={{ width: 'min(30rem, 95vw)' }}
      footer={
        <div className="dialog-actions">
          <Button
            type="button"
            text
            severity="secondary"
            label={t('common.cancel')}
            onClick={onHide}
          />
          <Button
            type="button"
            severity={
              confirming?.status === OfferStatus.Declined
                ? 'danger'
                : confirming?.status === OfferStatus.Accepted
                  ? 'success'
                  : undefined
            }
            label={
              confirming?.status === OfferStatus.Accepted
                ? t('marketplace.offers.accept')
                : confirming?.status === OfferStatus.Declined
                  ? t('marketplace.offers.decline')
                  : t('marketplace.offers.sendCounter')
            }
            loading={busy}
            onClick={onAnswer}
          />
        </div>
      }
    >
      {confirming && (
        <>
          <p>
            {t('marketplace.offers.offerOf', {
              carrier: confirming.row.carrier.name,
              price: format.price(confirming.row.price),
            })}
          </p>
          {termsOf(confirming.row) && (
            <TermsDetails of={confirming.row} title={t('accessorials.terms.offerTerms')} />
          )}
          {confirming.status === OfferStatus.Accepted && (
            <p className="muted">{t('marketplace.offers.acceptHint')}</p>
          )}
          {confirming.status === OfferStatus.PendingAcceptance && (
            <div className="form-field">
              <label htmlFor="counter-price">{t('marketplace.offers.counterPrice')}</label>
              <InputNumber
                inputId="counter-price"
                value={counterPrice}
                onChange={(event) => {
                  onCounterPrice(event.value ?? null);
                  onCounterError(null);
                }}
                onValueChange={(event) => onCounterPrice(event.value ?? null)}
                mode="currency"
                currency="USD"
                locale="en-US"
                min={0}
                invalid={Boolean(counterError)}
              />
              {counterError && <small className="p-error">{counterError}</small>}
            </div>
          )}
          {confirming.status === OfferStatus.PendingAcceptance &&
            counterTerms &&
            onCounterTerms && (
              <TermsFields
                id="counter-terms"
                values={counterTerms}
                onChange={onCounterTerms}
                toggleLabel={t('accessorials.terms.proposeOther')}
                offText={t('accessorials.terms.sameAsLoad')}
              />
            )}
        </>
      )}
    </Dialog>
  );
}
