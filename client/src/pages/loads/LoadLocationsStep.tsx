import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { useTranslation } from 'react-i18next';
import { searchRadii } from '../../../../domain/catalog.ts';
import {
  withExtraStop,
  type FieldErrors,
  type LoadFormValues,
  type StopForm,
} from './loadForm.model.ts';
import type { SavedLocation } from '../../shared/loads/loads.api.ts';
import { StopEditor } from './StopEditor.tsx';
import type { StepProps } from './LoadFormSteps.tsx';

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
