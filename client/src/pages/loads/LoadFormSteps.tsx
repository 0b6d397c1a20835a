import { Checkbox } from 'primereact/checkbox';
import { MultiSelect } from 'primereact/multiselect';
import { SelectButton } from 'primereact/selectbutton';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { loadTypes, trailerTypes } from '../../../../domain/catalog.ts';
import { DateTimeField } from './DateTimeField.tsx';
import type { FieldErrors, LoadFormValues } from './loadForm.model.ts';

export interface StepProps {
  values: LoadFormValues;
  set: <K extends keyof LoadFormValues>(field: K, value: LoadFormValues[K]) => void;
  /** A picked date-time: set, and checked for 'Please select date that is not in the past.'. */
  setTime: (
    field: 'pickupStart' | 'pickupEnd' | 'dropoffStart' | 'dropoffEnd' | 'expiration',
    value: string,
  ) => void;
  errors: FieldErrors;
  /** Whether this is a new load (the batch upload is offered then). */
  creating: boolean;
}

const nowWallTime = () => {
  const now = new Date();
  now.setSeconds(0, 0);
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** Step 1 'General info': the time windows with their zones, the offer expiration, the equipment. */
export function GeneralStep({ values, set, setTime, errors, creating }: StepProps) {
  const { t } = useTranslation();
  const min = nowWallTime();
  return (
    <div className="load-step">
      {creating && (
        <div className="load-step-intro">
          <p className="muted">{t('marketplace.form.generalIntro')}</p>
          <Link href="/loads/upload" className="p-button p-component p-button-outlined p-button-sm">
            <i className="pi pi-upload p-button-icon p-button-icon-left" aria-hidden="true" />
            <span className="p-button-label">{t('marketplace.form.batchUpload')}</span>
          </Link>
        </div>
      )}
      <div className="form-field">
        <span className="field-label" id="load-type-label">
          {t('marketplace.form.loadType')}
        </span>
        <SelectButton
          value={values.loadTypeId}
          options={loadTypes.map((type) => ({ value: type.id, label: type.name }))}
          onChange={(event) => event.value && set('loadTypeId', event.value as number)}
          aria-labelledby="load-type-label"
        />
      </div>
      <div className="time-windows">
        <section className="time-window" aria-labelledby="pickup-window">
          <h3 id="pickup-window">
            <i className="pi pi-arrow-up-right stop-pickup-icon" aria-hidden="true" />{' '}
            {t('marketplace.form.pickupWindow')}
          </h3>
          <DateTimeField
            id="pickupTimestampStart"
            label={t('marketplace.form.pickupStart')}
            required
            min={min}
            value={values.pickupStart}
            onChange={(value) => setTime('pickupStart', value)}
            zone={values.pickupTimezone}
            onZoneChange={(zone) => set('pickupTimezone', zone)}
            error={errors.pickupTimestampStart}
            zoneError={errors.pickupTimezone}
          />
          <div className="checkbox-field">
            <Checkbox
              inputId="pickupEndEnabled"
              checked={values.pickupEndEnabled}
              onChange={(event) => set('pickupEndEnabled', Boolean(event.checked))}
            />
            <label htmlFor="pickupEndEnabled">{t('marketplace.form.latestPickupToggle')}</label>
          </div>
          {values.pickupEndEnabled && (
            <DateTimeField
              id="pickupTimestampEnd"
              label={t('marketplace.form.pickupEnd')}
              min={min}
              value={values.pickupEnd}
              onChange={(value) => setTime('pickupEnd', value)}
              zone={values.pickupTimezone}
              onZoneChange={(zone) => set('pickupTimezone', zone)}
              error={errors.pickupTimestampEnd}
            />
          )}
        </section>
        <section className="time-window" aria-labelledby="dropoff-window">
          <h3 id="dropoff-window">
            <i className="pi pi-flag-fill stop-dropoff-icon" aria-hidden="true" />{' '}
            {t('marketplace.form.dropoffWindow')}
          </h3>
          <DateTimeField
            id="dropOffTimestampStart"
            label={t('marketplace.form.dropoffStart')}
            required
            min={min}
            value={values.dropoffStart}
            onChange={(value) => setTime('dropoffStart', value)}
            zone={values.dropoffTimezone}
            onZoneChange={(zone) => set('dropoffTimezone', zone)}
            error={errors.dropOffTimestampStart}
            zoneError={errors.dropoffTimezone}
          />
          <div className="checkbox-field">
            <Checkbox
              inputId="dropoffEndEnabled"
              checked={values.dropoffEndEnabled}
              onChange={(event) => set('dropoffEndEnabled', Boolean(event.checked))}
            />
            <label htmlFor="dropoffEndEnabled">{t('marketplace.form.latestDropoffToggle')}</label>
          </div>
          {values.dropoffEndEnabled && (
            <DateTimeField
              id="dropOffTimestampEnd"
              label={t('marketplace.form.dropoffEnd')}
              min={min}
              value={values.dropoffEnd}
              onChange={(value) => setTime('dropoffEnd', value)}
              zone={values.dropoffTimezone}
              onZoneChange={(zone) => set('dropoffTimezone', zone)}
              error={errors.dropOffTimestampEnd}
            />
          )}
        </section>
        <section className="time-window" aria-labelledby="offer-window">
          <h3 id="offer-window">
            <i className="pi pi-hourglass" aria-hidden="true" /> {t('marketplace.form.offerWindow')}
          </h3>
          <DateTimeField
            id="expiration"
            label={t('marketplace.form.expiration')}
            required
            min={min}
            value={values.expiration}
            onChange={(value) => setTime('expiration', value)}
            zone={values.expirationTimezone}
            onZoneChange={(zone) => set('expirationTimezone', zone)}
            error={errors.expiration}
            zoneError={errors.expirationTimezone}
          />
          <p className="field-hint">{t('marketplace.form.expirationHint')}</p>
        </section>
      </div>
      <div className="form-field">
        <label htmlFor="loadEquipment">{t('marketplace.form.equipment')} *</label>
        <MultiSelect
          inputId="loadEquipment"
          value={values.equipment}
          options={trailerTypes.map((type) => ({ value: type.id, label: type.name }))}
          onChange={(event) => set('equipment', event.value as number[])}
          placeholder={t('marketplace.form.equipment')}
          filter
          display="chip"
          invalid={Boolean(errors.loadEquipment)}
          className="w-full"
        />
        {errors.loadEquipment && <small className="p-error">{errors.loadEquipment}</small>}
      </div>
    </div>
  );
}
