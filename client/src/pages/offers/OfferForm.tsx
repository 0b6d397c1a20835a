import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormats } from '../../shared/format.ts';
import { TermsFields } from '../../shared/terms/TermsFields.tsx';
import {
  type AccessorialTerms,
  type TermsFormValues,
  termsFormOf,
  termsOf,
  toTerms,
  validateTerms,
} from '../../shared/terms/terms.ts';
import type { EldTruck, OfferRow } from './offers.api.ts';

export const PRICE_MESSAGE = 'Please enter a price greater than 0';

export interface OfferValues {
  price: number | null;
  message: string;
  eldTruckName: string;
}

interface Props {
  current: OfferRow | null;
  /** The carrier's ELD trucks nearest the pickup first; null while loading, [] when ELD is not set up. */
  trucks: EldTruck[] | null;
  busy: boolean;
  onSubmit: (values: {
    price: number;
    message: string;
    eldTruckName: string | null;
    terms?: AccessorialTerms | null;
  }) => void;
  /** The load's terms: an offer starts from them when it proposes other terms. */
  loadTerms?: AccessorialTerms | null;
  onWithdraw?: () => void;
  messageText: (message: string) => string;
}

/** Price, message and truck of an offer; the same form revises an open offer. */
export function OfferForm({
  current,
  trucks,
  busy,
  onSubmit,
  onWithdraw,
  messageText,
  loadTerms = null,
}: Props) {
  const { t, i18n } = useTranslation();
  const format = useFormats();
  const [values, setValues] = useState<OfferValues>({ price: null, message: '', eldTruckName: '' });
  const [priceError, setPriceError] = useState<string | null>(null);
  // Off: the offer takes the load's terms. On: the offer's own (an open offer's, else the load's to start from).
  const [terms, setTerms] = useState<TermsFormValues>(() => termsFormOf(loadTerms, false));
  const termsErrors = validateTerms(terms);
  const [showTermsErrors, setShowTermsErrors] = useState(false);

  useEffect(() => {
    const own = termsOf(current);
    setTerms(own ? termsFormOf(own, true) : termsFormOf(loadTerms, false));
  }, [current?.id, loadTerms]);

  useEffect(() => {
    if (current)
      setValues({
        price: current.price,
        message: current.message ?? '',
        eldTruckName: current.eldTruckName ?? '',
      });
  }, [current?.id, current?.price, current?.message, current?.eldTruckName]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (values.price === null || !(values.price > 0)) {
      setPriceError(messageText(PRICE_MESSAGE));
      return;
    }
    if (Object.keys(termsErrors).length > 0) {
      setShowTermsErrors(true);
      return;
    }
    onSubmit({
      price: Math.round(values.price * 100) / 100,
      message: values.message.trim(),
      eldTruckName: values.eldTruckName.trim() || null,
      ...(terms.enabled ? { terms: toTerms(terms) } : {}),
    });
  };

  const open = current && (current.status === 10 || current.status === 11);
  const truckOptions = (trucks ?? []).map((truck) => ({
    value: truck.name,
    label:
      truck.distance !== undefined
        ? `${truck.name} · ${t('marketplace.offer.truckAway', { miles: format.miles(truck.distance) })}`
        : truck.name,
  }));

  return (
    <form className="offer-form" onSubmit={submit} noValidate>
      <div className="form-field">
        <label htmlFor="offer-price">{t('marketplace.offer.price')} *</label>
        <InputNumber
          inputId="offer-price"
          value={values.price}
          // onChange fires as the user types; onValueChange on blur (and on paste): an Enter may come before a blur.
          onChange={(event) => {
            setValues((v) => ({ ...v, price: event.value ?? null }));
            setPriceError(null);
          }}
          onValueChange={(event) => setValues((v) => ({ ...v, price: event.value ?? null }))}
          mode="currency"
          currency="USD"
          locale={i18n.resolvedLanguage === 'ar' ? 'en-US' : i18n.resolvedLanguage}
          min={0}
          maxFractionDigits={2}
          invalid={Boolean(priceError)}
          aria-describedby={priceError ? 'offer-price-error' : undefined}
          className="offer-price-input"
        />
        {priceError && (
          <small id="offer-price-error" className="p-error">
            {priceError}
          </small>
        )}
      </div>
      <div className="form-field">
        <label htmlFor="offer-truck">{t('marketplace.offer.truck')}</label>
        {trucks && trucks.length > 0 ? (
          <Dropdown
            inputId="offer-truck"
            value={values.eldTruckName || null}
            options={truckOptions}
            onChange={(event) =>
              setValues((v) => ({ ...v, eldTruckName: (event.value as string | null) ?? '' }))
            }
            editable
            showClear
            placeholder={t('marketplace.offer.truckChoose')}
          />
        ) : (
          <InputText
            id="offer-truck"
            value={values.eldTruckName}
            onChange={(event) => setValues((v) => ({ ...v, eldTruckName: event.target.value }))}
            placeholder={t('marketplace.offer.truckFree')}
            aria-describedby="offer-truck-hint"
          />
        )}
        <small id="offer-truck-hint" className="field-hint">
          {trucks === null
            ? t('common.loading')
            : trucks.length > 0
              ? t('marketplace.offer.truckNearest')
              : t('marketplace.offer.truckNoEld')}
        </small>
      </div>
      <div className="form-field">
        <label htmlFor="offer-message">{t('marketplace.offer.message')}</label>
        <InputTextarea
          id="offer-message"
          rows={4}
          value={values.message}
          onChange={(event) => setValues((v) => ({ ...v, message: event.target.value }))}
        />
      </div>
      <TermsFields
        id="offer-terms"
        values={terms}
        onChange={setTerms}
        errors={showTermsErrors ? termsErrors : {}}
        toggleLabel={t('accessorials.terms.proposeOther')}
        offText={t('accessorials.terms.sameAsLoad')}
      />
      <div className="form-actions">
        {open && onWithdraw && (
          <Button
            type="button"
            text
            severity="danger"
            icon="pi pi-undo"
            label={t('marketplace.actions.withdraw')}
            onClick={onWithdraw}
            disabled={busy}
          />
        )}
        <Button
          type="submit"
          icon="pi pi-send"
          label={open ? t('marketplace.offer.revise') : t('marketplace.offer.submit')}
          loading={busy}
        />
      </div>
    </form>
  );
}
