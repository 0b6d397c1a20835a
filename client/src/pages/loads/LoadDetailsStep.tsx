import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { MultiSelect } from 'primereact/multiselect';
import { useTranslation } from 'react-i18next';
import { accessories } from '../../../../domain/catalog.ts';
import { LaneRatesCard } from '../../shared/laneRates/LaneRatesCard.tsx';
import { TermsFields } from '../../shared/terms/TermsFields.tsx';
import type { StepProps } from './LoadFormSteps.tsx';
import type { StopForm } from './loadForm.model.ts';

/** Step 3 'Load Details': accessories, weight, comments, reference number, commodity, accessorial terms; the typical price on the lane. */
export function DetailsStep({
  values,
  set,
  errors,
  termsHint,
}: Omit<StepProps, 'setTime' | 'creating'> & { termsHint?: string | null }) {
  const { t } = useTranslation();
  const field = (
    name: 'weight' | 'refNumber' | 'commodity',
    label: string,
    inputMode?: 'decimal',
  ) => (
    <div className="form-field">
      <label htmlFor={name}>{label} *</label>
      <InputText
        id={name}
        value={values[name]}
        inputMode={inputMode}
        onChange={(event) => set(name, event.target.value)}
        invalid={Boolean(errors[name])}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${name}-error` : undefined}
      />
      {errors[name] && (
        <small id={`${name}-error`} className="p-error">
          {errors[name]}
        </small>
      )}
    </div>
  );
  return (
    <div className="load-step">
      <div className="form-field">
        <label htmlFor="loadAccessories">{t('marketplace.form.accessories')} *</label>
        <MultiSelect
          inputId="loadAccessories"
          value={values.accessories}
          options={accessories.map((entry) => ({
            value: entry.id,
            label: t(`marketplace.accessories.${entry.id}` as never) as string,
          }))}
          onChange={(event) => set('accessories', event.value as number[])}
          placeholder={t('marketplace.form.accessories')}
          display="chip"
          invalid={Boolean(errors.loadAccessories)}
        />
        {errors.loadAccessories && <small className="p-error">{errors.loadAccessories}</small>}
      </div>
      <div className="form-grid">
        {field('weight', t('marketplace.form.weight'), 'decimal')}
        {field('refNumber', t('marketplace.form.refNumber'))}
        {field('commodity', t('marketplace.form.commodity'))}
      </div>
      <div className="form-field">
        <label htmlFor="description">{t('marketplace.form.comments')}</label>
        <InputTextarea
          id="description"
          rows={5}
          autoResize={false}
          value={values.description}
          onChange={(event) => set('description', event.target.value)}
        />
      </div>
      <div className="form-field">
        <label htmlFor="preferredOnlyHours">{t('carrierLists.firstHours')}</label>
        <InputText
          id="preferredOnlyHours"
          value={values.preferredOnlyHours}
          inputMode="numeric"
          placeholder="0"
          onChange={(event) => set('preferredOnlyHours', event.target.value)}
          invalid={Boolean(errors['audience.preferredOnlyHours'])}
          aria-invalid={errors['audience.preferredOnlyHours'] ? true : undefined}
          aria-describedby="preferredOnlyHours-hint"
        />
        <small id="preferredOnlyHours-hint" className="form-hint">
          {errors['audience.preferredOnlyHours'] ?? t('carrierLists.firstHoursHint')}
        </small>
      </div>
      <div className="form-field">
        <label htmlFor="bookNowPrice">{t('bookNow.priceLabel')}</label>
        <InputText
          id="bookNowPrice"
          value={values.bookNowPrice}
          inputMode="decimal"
          onChange={(event) => set('bookNowPrice', event.target.value)}
          invalid={Boolean(errors.bookNowPrice)}
          aria-invalid={errors.bookNowPrice ? true : undefined}
          aria-describedby={errors.bookNowPrice ? 'bookNowPrice-error' : 'bookNowPrice-hint'}
        />
        {errors.bookNowPrice ? (
          <small id="bookNowPrice-error" className="p-error">
            {errors.bookNowPrice}
          </small>
        ) : (
          <small id="bookNowPrice-hint" className="muted">
            {t('bookNow.priceHint')}
          </small>
        )}
      </div>
      <TermsFields
        id="load-terms"
        values={values.terms}
        onChange={(terms) => set('terms', terms)}
        errors={errors}
        hint={termsHint}
      />
      <LaneRatesCard
        id="load-form"
        origin={stopPoint(values.stops[0])}
        destination={stopPoint(values.stops.at(-1))}
        equipment={values.equipment}
      />
    </div>
  );
}

/** A stop's place, once one is picked. */
const stopPoint = (stop: StopForm | undefined) =>
  stop ? { latitude: stop.lat, longitude: stop.long } : null;
