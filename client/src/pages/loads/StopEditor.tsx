import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useTranslation } from 'react-i18next';
import { LocationType, locationTypeHasNumber } from '../../../../domain/catalog.ts';
import {
  isPlaced,
  MapPanel,
  PLACE_ZOOM,
  USA_CENTER,
  DEFAULT_ZOOM,
} from '../../components/map/index.ts';
import { placeOnStop, savedOnStop, type StopForm } from './loadForm.model.ts';
import type { SavedLocation } from '../../shared/loads/loads.api.ts';
import { PlaceSearch } from './PlaceSearch.tsx';

interface Props {
  stop: StopForm;
  index: number;
  onChange: (stop: StopForm) => void;
  onRemove?: () => void;
  savedLocations: SavedLocation[];
  /** Saved locations farther than this (miles) from the chosen place are not offered. */
  searchDistance: number;
  errors: Record<string, string>;
}

const EARTH_MILES = 3958.76;
const milesBetween = (
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
) => {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) *
      Math.cos(b.latitude * rad) *
      Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * EARTH_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
};

const markerKind = (typeId: number) =>
  (typeId === LocationType.Pickup
    ? 'pickup'
    : typeId === LocationType.Dropoff
      ? 'dropoff'
      : 'stop') as 'pickup' | 'dropoff' | 'stop';

/** One stop of the load: its place (search and map), facility, contact, number and saved locations. */
export function StopEditor({
  stop,
  index,
  onChange,
  onRemove,
  savedLocations,
  searchDistance,
  errors,
}: Props) {
  const { t } = useTranslation();
  const id = `stop-${stop.id}`;
  const error = (field: string) => errors[`locations.${index}.${field}`];
  const set = <K extends keyof StopForm>(field: K, value: StopForm[K]) =>
    onChange({ ...stop, [field]: value });
  const extra =
    stop.typeId === LocationType.ExtraPickupStop || stop.typeId === LocationType.ExtraDropoffStop;
  const placed = isPlaced({ latitude: stop.lat, longitude: stop.long });
  const nearby = placed
    ? savedLocations.filter(
        (saved) =>
          milesBetween(saved, { latitude: stop.lat, longitude: stop.long }) <= searchDistance,
      )
    : savedLocations;
  const savedOptions = nearby.map((saved) => ({
    value: saved.id,
    label: `${saved.name} · ${[saved.city, saved.state].filter(Boolean).join(', ') || saved.address}`,
  }));
  const numberLabel =
    stop.typeId === LocationType.Pickup
      ? t('marketplace.stop.pickupNumber')
      : t('marketplace.stop.dropoffNumber');

  return (
    <fieldset className={`stop-editor card stop-${markerKind(stop.typeId)}`}>
      <legend className="stop-legend">
        <span className={`stop-badge stop-badge-${markerKind(stop.typeId)}`} aria-hidden="true">
          {index + 1}
        </span>
        {t(`marketplace.locationTypes.${stop.typeId}` as never)}
      </legend>
      <div className="stop-toolbar">
        {extra && (
          <Dropdown
            inputId={`${id}-type`}
            value={stop.typeId}
            options={[LocationType.ExtraPickupStop, LocationType.ExtraDropoffStop].map((type) => ({
              value: type,
              label: t(`marketplace.locationTypes.${type}` as never) as string,
            }))}
            onChange={(event) => set('typeId', event.value as number)}
            ariaLabel={t('marketplace.stop.type')}
          />
        )}
        {onRemove && (
          <Button
            type="button"
            icon="pi pi-trash"
            text
            severity="danger"
            label={t('marketplace.stop.remove')}
            onClick={onRemove}
          />
        )}
      </div>
      <div className="stop-grid">
        <div className="stop-fields">
          <PlaceSearch
            id={`${id}-place`}
            label={t('marketplace.stop.place')}
            required
            value={stop.placeName}
            onType={(text) =>
              onChange({
                ...stop,
                placeName: text,
                lat: 0,
                long: 0,
                city: null,
                state: null,
                savedLocationId: null,
              })
            }
            onPick={(place) => onChange(placeOnStop(stop, place))}
            error={error('address')}
          />
          <div className="form-field">
            <label htmlFor={`${id}-saved`}>{t('marketplace.stop.savedLocation')}</label>
            <Dropdown
              inputId={`${id}-saved`}
              value={stop.savedLocationId}
              options={savedOptions}
              onChange={(event) => {
                const saved = savedLocations.find((entry) => entry.id === event.value);
                if (saved) onChange(savedOnStop(stop, saved));
              }}
              placeholder={t('marketplace.stop.chooseSaved')}
              emptyMessage={t('marketplace.stop.noSavedLocations')}
              filter={savedOptions.length > 8}
            />
          </div>
          <div className="form-field">
            <label htmlFor={`${id}-name`}>{t('marketplace.stop.facilityName')} *</label>
            <InputText
              id={`${id}-name`}
              value={stop.name}
              onChange={(event) => set('name', event.target.value)}
              invalid={Boolean(error('name'))}
              aria-invalid={error('name') ? true : undefined}
              aria-describedby={error('name') ? `${id}-name-error` : undefined}
            />
            {error('name') && (
              <small id={`${id}-name-error`} className="p-error">
                {error('name')}
              </small>
            )}
          </div>
          <div className="form-grid">
            <div className="form-field">
              <label htmlFor={`${id}-contact`}>{t('marketplace.stop.contactName')}</label>
              <InputText
                id={`${id}-contact`}
                value={stop.contactName}
                onChange={(event) => set('contactName', event.target.value)}
                autoComplete="off"
              />
            </div>
            <div className="form-field">
              <label htmlFor={`${id}-phone`}>{t('marketplace.stop.contactPhone')}</label>
              <InputText
                id={`${id}-phone`}
                type="tel"
                value={stop.contactPhone}
                onChange={(event) => set('contactPhone', event.target.value)}
                invalid={Boolean(error('contactPhone'))}
                aria-invalid={error('contactPhone') ? true : undefined}
                aria-describedby={`${id}-phone-hint${error('contactPhone') ? ` ${id}-phone-error` : ''}`}
              />
              <small id={`${id}-phone-hint`} className="field-hint">
                {t('marketplace.stop.phoneHint')}
              </small>
              {error('contactPhone') && (
                <small id={`${id}-phone-error`} className="p-error">
                  {error('contactPhone')}
                </small>
              )}
            </div>
            {locationTypeHasNumber(stop.typeId) && (
              <div className="form-field">
                <label htmlFor={`${id}-number`}>{numberLabel}</label>
                <InputText
                  id={`${id}-number`}
                  value={stop.number}
                  onChange={(event) => set('number', event.target.value)}
                />
              </div>
            )}
          </div>
          <div className="checkbox-field">
            <Checkbox
              inputId={`${id}-save`}
              checked={stop.saveLocation}
              onChange={(event) => set('saveLocation', Boolean(event.checked))}
              disabled={Boolean(stop.savedLocationId)}
            />
            <label htmlFor={`${id}-save`}>{t('marketplace.stop.saveLocation')}</label>
          </div>
        </div>
        <MapPanel
          ariaLabel={
            placed
              ? t('marketplace.stop.mapOf', { place: stop.placeName })
              : t('marketplace.stop.mapEmpty')
          }
          markers={
            placed
              ? [
                  {
                    id: String(stop.id),
                    kind: markerKind(stop.typeId),
                    latitude: stop.lat,
                    longitude: stop.long,
                    title: stop.placeName,
                  },
                ]
              : []
          }
          center={USA_CENTER}
          zoom={DEFAULT_ZOOM}
          maxFitZoom={PLACE_ZOOM}
          height={500}
          className="stop-map"
        />
      </div>
    </fieldset>
  );
}
