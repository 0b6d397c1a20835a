import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { MultiSelect } from 'primereact/multiselect';
import { SelectButton } from 'primereact/selectbutton';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { accessories, loadTypes, searchRadii, trailerTypes } from '../../../../domain/catalog.ts';
import { LaneRatesCard } from '../../shared/insights/LaneRatesCard.tsx';
import { DateTimeField } from './DateTimeField.tsx';
import {
  withExtraStop,
  type FieldErrors,
  type LoadFormValues,
  type StopForm,
} from './loadForm.model.ts';
import type { SavedLocation } from '../../shared/loads/loads.api.ts';
import { StopEditor } from './StopEditor.tsx';

interface StepProps {
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

interface LocationsProps {
  values: LoadFormValues;
  set: StepProps['set'];
  errors: FieldErrors;
  savedLocations: SavedLocation[];
}

/** Step 2 'Locations': the stops, in route order, with 'Add extra stop' and removal. */
export function LocationsStep({ values, set, errors, savedLocations }: LocationsProps) {
  const { t } = useTranslation();
  const change = (stop: StopForm) =>
    set(
      'stops',
      values.stops.map((current) => (current.id === stop.id ? stop : current)),
    );
  const remove = (id: number) =>
    set(
      'stops',
      values.stops.filter((stop) => stop.id !== id),
    );
  return (
    <div className="load-step">
      <div className="locations-toolbar">
        <div className="form-field search-distance">
          <label htmlFor="searchDistance">{t('marketplace.form.searchDistance')}</label>
          <Dropdown
            inputId="searchDistance"
            value={values.searchDistance}
            options={searchRadii.map((radius) => ({
              value: radius,
              label: t('marketplace.units.miles', { value: radius }),
            }))}
            onChange={(event) => set('searchDistance', event.value as number)}
          />
        </div>
        <Button
          type="button"
          icon="pi pi-plus"
          outlined
          label={t('marketplace.form.addStop')}
          onClick={() => set('stops', withExtraStop(values.stops))}
        />
      </div>
      {errors.locations && (
        <small className="p-error" role="alert">
          {errors.locations}
        </small>
      )}
      {values.stops.map((stop, index) => (
        <StopEditor
          key={stop.id}
          stop={stop}
          index={index}
          onChange={change}
          onRemove={
            index === 0 || index === values.stops.length - 1 ? undefined : () => remove(stop.id)
          }
          savedLocations={savedLocations}
          searchDistance={values.searchDistance}
          errors={errors}
        />
      ))}
    </div>
  );
}

/** Step 3 'Load Details': accessories, weight, comments, reference number, commodity; the typical price on the lane. */
export function DetailsStep({ values, set, errors }: Omit<StepProps, 'setTime' | 'creating'>) {
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
