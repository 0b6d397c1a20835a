import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { timeZonesAt } from '../../../../domain/catalog.ts';

interface Props {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  zone: string;
  onZoneChange: (zone: string) => void;
  error?: string | null;
  zoneError?: string | null;
  required?: boolean;
  disabled?: boolean;
  /** The earliest wall time offered (`YYYY-MM-DDTHH:mm`). */
  min?: string;
}

/** The six zones, each with its short name and offset now (CST, UTC-06:00). */
export function useTimeZoneOptions() {
  const { t } = useTranslation();
  return useMemo(
    () =>
      timeZonesAt(new Date().toISOString()).map((zone) => ({
        value: zone.id,
        label: `${t(`marketplace.zones.${zone.id.replace('/', '_')}` as never) as string} · ${zone.shortName} (UTC${zone.offset})`,
      })),
    [t],
  );
}

/** A date-time (the internal `YYYY-MM-DDTHH:mm`) with the time zone it is read in. */
export function DateTimeField({
  id,
  label,
  value,
  onChange,
  zone,
  onZoneChange,
  error,
  zoneError,
  required,
  disabled,
  min,
}: Props) {
  const { t } = useTranslation();
  const zones = useTimeZoneOptions();
  return (
    <div className="form-field date-time-field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <div className="date-time-inputs">
        <InputText
          id={id}
          type="datetime-local"
          value={value}
          min={min}
          disabled={disabled}
          invalid={Boolean(error)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
        <Dropdown
          inputId={`${id}-zone`}
          value={zone || null}
          options={zones}
          onChange={(event) => onZoneChange((event.value as string | null) ?? '')}
          placeholder={t('marketplace.form.timezone')}
          ariaLabel={t('marketplace.form.timezoneOf', { field: label })}
          // ariaLabel names only the trigger; the focusable input needs its own name.
          aria-label={t('marketplace.form.timezoneOf', { field: label })}
          showClear
          disabled={disabled}
          invalid={Boolean(zoneError)}
          className="zone-picker"
        />
      </div>
      {error && (
        <small id={`${id}-error`} className="p-error">
          {error}
        </small>
      )}
      {zoneError && <small className="p-error">{zoneError}</small>}
    </div>
  );
}
