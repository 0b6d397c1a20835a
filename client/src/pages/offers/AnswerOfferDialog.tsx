import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputNumber } from 'primereact/inputnumber';
import { useTranslation } from 'react-i18next';
import { useFormats } from '../../shared/format.ts';
import { OfferStatus, type OfferRow } from './offers.api.ts';

/** The shipper's answer to one offer: accept, decline, or counter with a price. */
export function AnswerOfferDialog({
  confirming,
  counterPrice,
  counterError,
  busy,
  onCounterPrice,
  onCounterError,
  onHide,
  onAnswer,
}: {
  confirming: { row: OfferRow; status: number } | null;
  counterPrice: number | null;
  counterError: string | null;
  busy: boolean;
  onCounterPrice: (price: number | null) => void;
  onCounterError: (error: string | null) => void;
  onHide: () => void;
  onAnswer: () => void;
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
        </>
      )}
    </Dialog>
  );
}
