import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { useTranslation } from 'react-i18next';
import {
  type TermsError,
  type TermsFormValues,
  type TermsNumberField,
  termsPaths,
} from './terms.ts';
import './terms.css';

/** A field's message: a check of the form (its key) or the server's own text. */
export type TermsFieldErrors = Record<string, TermsError | string>;

const numberFields: {
  field: TermsNumberField;
  label: string;
  money?: boolean;
}[] = [
  { field: 'pickupFreeHours', label: 'accessorials.terms.freePickup' },
  { field: 'deliveryFreeHours', label: 'accessorials.terms.freeDelivery' },
  { field: 'detentionPerHour', label: 'accessorials.terms.detentionPerHour', money: true },
  { field: 'detentionCap', label: 'accessorials.terms.detentionCap', money: true },
  { field: 'tonu', label: 'accessorials.terms.tonu', money: true },
  { field: 'layoverPerDay', label: 'accessorials.terms.layoverPerDay', money: true },
  { field: 'graceMinutes', label: 'accessorials.terms.graceMinutes' },
  { field: 'disputeWindowHours', label: 'accessorials.terms.disputeWindowHours' },
];

/**
 * The accessorial terms of a load or an offer: switched on or off, then free time, detention and its
 * cap, TONU, layover, who pays the lumper, the grace and the window to answer a claim. Each message
 * shows under its field the moment it is wrong.
 */
export function TermsFields({
  id,
  values,
  onChange,
  errors = {},
  toggleLabel,
  offText,
  hint,
  hideToggle = false,
}: {
  id: string;
  values: TermsFormValues;
  onChange: (values: TermsFormValues) => void;
  errors?: TermsFieldErrors;
  toggleLabel?: string;
  /** What the terms are while off: "No terms" unless said otherwise (an offer: the load's). */
  offText?: string;
  hint?: string | null;
  /** Without the on/off checkbox, where the form around says whether the terms apply. */
  hideToggle?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const numberLocale = lng === 'ar' ? 'en-US' : lng;
  const messageOf = (path: string): string | null => {
    const error = errors[path];
    if (!error) return null;
    return typeof error === 'string'
      ? error
      : (t(`accessorials.errors.${error.key}`, error.values ?? {}) as string);
  };
  const set = <K extends keyof TermsFormValues>(field: K, value: TermsFormValues[K]) =>
    onChange({ ...values, [field]: value });

  return (
    <fieldset className="terms-fieldset">
      <legend>{t('accessorials.terms.title')}</legend>
      {!hideToggle && (
        <div className="terms-toggle">
          <Checkbox
            inputId={`${id}-enabled`}
            checked={values.enabled}
            onChange={(event) => set('enabled', Boolean(event.checked))}
          />
          <label htmlFor={`${id}-enabled`}>{toggleLabel ?? t('accessorials.terms.enable')}</label>
        </div>
      )}
      {!values.enabled ? (
        <p className="muted">{offText ?? t('accessorials.terms.none')}</p>
      ) : (
        <>
          {hint && <p className="field-hint">{hint}</p>}
          <div className="terms-grid">
            {numberFields.map(({ field, label, money }) => {
              const path = termsPaths[field];
              const message = messageOf(path);
              const inputId = `${id}-${field}`;
              return (
                <div className="form-field" key={field}>
                  <label htmlFor={inputId}>{t(label as 'accessorials.terms.tonu')}</label>
                  <InputNumber
                    inputId={inputId}
                    value={values[field]}
                    onChange={(event) => set(field, event.value ?? null)}
                    onValueChange={(event) => set(field, event.value ?? null)}
                    {...(money
                      ? { mode: 'currency' as const, currency: 'USD', maxFractionDigits: 2 }
                      : { maxFractionDigits: 1 })}
                    locale={numberLocale}
                    min={0}
                    invalid={Boolean(message)}
                    aria-invalid={message ? true : undefined}
                    aria-describedby={message ? `${inputId}-error` : undefined}
                  />
                  {message && (
                    <small id={`${inputId}-error`} className="p-error">
                      {message}
                    </small>
                  )}
                </div>
              );
            })}
            <div className="form-field">
              <label htmlFor={`${id}-lumper`}>{t('accessorials.terms.lumper')}</label>
              <Dropdown
                inputId={`${id}-lumper`}
                value={values.lumper}
                options={[
                  { value: 'shipper', label: t('accessorials.terms.lumperShipper') },
                  { value: 'carrier-reimbursed', label: t('accessorials.terms.lumperCarrier') },
                ]}
                onChange={(event) => set('lumper', event.value as TermsFormValues['lumper'])}
              />
              {messageOf(termsPaths.lumper) && (
                <small className="p-error">{messageOf(termsPaths.lumper)}</small>
              )}
            </div>
          </div>
        </>
      )}
    </fieldset>
  );
}
