import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { Checkbox } from 'primereact/checkbox';
import { InputText } from 'primereact/inputtext';
import { MultiSelect } from 'primereact/multiselect';
import { useTranslation } from 'react-i18next';
import { DEFAULT_SEARCH_RADIUS, searchRadii, trailerTypes } from '../../../../domain/catalog.ts';
import type { SearchArea } from '../../shared/loads/loads.api.ts';
import { PlaceSearch } from './PlaceSearch.tsx';

/** The marketplace search as the carrier fills it in. */
export interface CarrierSearch {
  originText: string;
  origin: SearchArea | null;
  originRadius: number;
  destinationText: string;
  destination: SearchArea | null;
  destinationRadius: number;
  equipment: number[];
  pickupFrom: string;
  pickupTo: string;
  maxWeight: string;
  /** Only the loads with a Book Now price. */
  bookNowOnly?: boolean;
  /** Only the loads of shippers whose median days to pay is at most this; null: any payer. */
  maxDaysToPay?: number | null;
}

/** The choices of the "Pays within" filter, in days. */
export const payWithinChoices = [15, 30, 45, 60] as const;

export const emptySearch = (): CarrierSearch => ({
  originText: '',
  origin: null,
  originRadius: DEFAULT_SEARCH_RADIUS,
  destinationText: '',
  destination: null,
  destinationRadius: DEFAULT_SEARCH_RADIUS,
  equipment: [],
  pickupFrom: '',
  pickupTo: '',
  maxWeight: '',
  bookNowOnly: false,
  maxDaysToPay: null,
});

/** The `filters` of GET loads/carrier (docs/api.md "Table protocol"); empty ones are dropped by the table. */
export const searchFilters = (search: CarrierSearch): Record<string, unknown> => ({
  origin: search.origin
    ? [
        {
          latitude: search.origin.latitude,
          longitude: search.origin.longitude,
          radius: search.originRadius,
        },
      ]
    : [],
  destination: search.destination
    ? [
        {
          latitude: search.destination.latitude,
          longitude: search.destination.longitude,
          radius: search.destinationRadius,
        },
      ]
    : [],
  equipment: search.equipment,
  pickupFrom: search.pickupFrom ? [new Date(`${search.pickupFrom}T00:00`).toISOString()] : [],
  pickupTo: search.pickupTo ? [new Date(`${search.pickupTo}T23:59:59`).toISOString()] : [],
  maxWeight: Number(search.maxWeight) > 0 ? [Number(search.maxWeight)] : [],
  bookNow: search.bookNowOnly ? [true] : [],
  maxDaysToPay: search.maxDaysToPay ? [search.maxDaysToPay] : [],
});

interface Props {
  search: CarrierSearch;
  onChange: (search: CarrierSearch) => void;
  onClear: () => void;
  onSave: () => void;
}

/** Origin and destination with their radius, equipment, pickup dates and the most weight. */
export function CarrierSearchForm({ search, onChange, onClear, onSave }: Props) {
  const { t } = useTranslation();
  const set = <K extends keyof CarrierSearch>(field: K, value: CarrierSearch[K]) =>
    onChange({ ...search, [field]: value });
  const radii = searchRadii.map((radius) => ({
    value: radius,
    label: t('marketplace.units.miles', { value: radius }),
  }));
  const area = (side: 'origin' | 'destination') => {
    const textField = side === 'origin' ? 'originText' : 'destinationText';
    const radiusField = side === 'origin' ? 'originRadius' : 'destinationRadius';
    return (
      <div className="search-area">
        <PlaceSearch
          id={`search-${side}`}
          label={t(`marketplace.search.${side}`)}
          value={search[textField]}
          attribution={false}
          onType={(text) =>
            onChange({
              ...search,
              [textField]: text,
              [side]: text.trim() === '' ? null : search[side],
            })
          }
          onPick={(place) =>
            onChange({
              ...search,
              [textField]: place.name,
              [side]: {
                latitude: place.latitude,
                longitude: place.longitude,
                radius: search[radiusField],
                label: place.name,
              },
            })
          }
        />
        <div className="form-field radius-field">
          <label htmlFor={`search-${side}-radius`}>{t('marketplace.search.radius')}</label>
          <Dropdown
            inputId={`search-${side}-radius`}
            value={search[radiusField]}
            options={radii}
            onChange={(event) => set(radiusField, event.value as number)}
          />
        </div>
      </div>
    );
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a form with the search landmark role, as browsers without <search> need
    <form
      className="card carrier-search"
      onSubmit={(event) => event.preventDefault()}
      role="search"
      aria-label={t('marketplace.search.title')}
    >
      <div className="carrier-search-grid">
        {area('origin')}
        {area('destination')}
        <div className="form-field">
          <label htmlFor="search-equipment">{t('marketplace.columns.equipment')}</label>
          <MultiSelect
            inputId="search-equipment"
            value={search.equipment}
            options={trailerTypes.map((type) => ({ value: type.id, label: type.name }))}
            onChange={(event) => set('equipment', event.value as number[])}
            filter
            maxSelectedLabels={2}
            placeholder={t('marketplace.search.anyEquipment')}
          />
        </div>
        <div className="form-field">
          <label htmlFor="search-from">{t('marketplace.search.pickupFrom')}</label>
          <InputText
            id="search-from"
            type="date"
            value={search.pickupFrom}
            onChange={(event) => set('pickupFrom', event.target.value)}
          />
        </div>
        <div className="form-field">
          <label htmlFor="search-to">{t('marketplace.search.pickupTo')}</label>
          <InputText
            id="search-to"
            type="date"
            value={search.pickupTo}
            onChange={(event) => set('pickupTo', event.target.value)}
          />
        </div>
        <div className="form-field">
          <label htmlFor="search-weight">{t('marketplace.search.maxWeight')}</label>
          <InputText
            id="search-weight"
            inputMode="numeric"
            value={search.maxWeight}
            onChange={(event) => set('maxWeight', event.target.value.replace(/[^\d.]/g, ''))}
          />
        </div>
        <div className="form-field form-field-check">
          <Checkbox
            inputId="search-book-now"
            checked={Boolean(search.bookNowOnly)}
            onChange={(event) => set('bookNowOnly', Boolean(event.checked))}
          />
          <label htmlFor="search-book-now">{t('bookNow.onlyFilter')}</label>
        </div>
        <div className="form-field">
          <label htmlFor="search-pays-within">{t('payers.filter')}</label>
          <Dropdown
            inputId="search-pays-within"
            value={search.maxDaysToPay ?? null}
            options={[
              { label: t('payers.filterAny'), value: null },
              ...payWithinChoices.map((days) => ({
                label: t('payers.filterDays', { days }),
                value: days,
              })),
            ]}
            onChange={(event) => set('maxDaysToPay', (event.value as number | null) ?? null)}
          />
        </div>
      </div>
      <div className="carrier-search-actions">
        <Button
          type="button"
          text
          severity="secondary"
          icon="pi pi-filter-slash"
          label={t('marketplace.search.clear')}
          onClick={onClear}
        />
        <Button
          type="button"
          outlined
          icon="pi pi-bell"
          label={t('marketplace.search.save')}
          onClick={onSave}
        />
      </div>
    </form>
  );
}
