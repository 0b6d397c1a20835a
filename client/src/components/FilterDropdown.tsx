import { Dropdown } from 'primereact/dropdown';
import { useTranslation } from 'react-i18next';

export interface FilterOption {
  value: number | string;
  label: string;
}

/** A table filter: its first option is 'All …' (value 0, which the table protocol drops). */
export function FilterDropdown({
  id,
  label,
  allLabel,
  options,
  value,
  onChange,
}: {
  id: string;
  label: string;
  allLabel?: string;
  options: FilterOption[];
  value: number | string;
  onChange: (value: number | string) => void;
}) {
  const { t } = useTranslation();
  const all: FilterOption = { value: 0, label: allLabel ?? t('table.all', { name: label }) };
  return (
    <span className="table-filter">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <Dropdown
        inputId={id}
        value={value}
        options={[all, ...options]}
        onChange={(event) => onChange(event.value as number | string)}
      />
    </span>
  );
}
