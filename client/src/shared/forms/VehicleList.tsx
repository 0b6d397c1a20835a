import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { useTranslation } from 'react-i18next';
import type { VehicleCount } from '../../../../domain/contracts/account.contract.ts';

/** A list of `{type, count}` lines (trucks, driver teams, trailers): add, change, remove. */
export function VehicleList({
  idPrefix,
  items,
  options,
  onChange,
  errors,
  addLabel,
  typeLabel,
}: {
  idPrefix: string;
  items: VehicleCount[];
  options: { value: number; label: string }[];
  onChange: (items: VehicleCount[]) => void;
  errors: Record<string, string>;
  addLabel: string;
  typeLabel: string;
}) {
  const { t } = useTranslation();
  const update = (index: number, patch: Partial<VehicleCount>) =>
    onChange(items.map((item, at) => (at === index ? { ...item, ...patch } : item)));
  return (
    <div className="vehicle-list">
      {items.length === 0 && <p className="muted">{t('account.carrier.noneYet')}</p>}
      {items.map((item, index) => {
        const typeError = errors[`${idPrefix}.${index}.type`];
        const countError = errors[`${idPrefix}.${index}.count`];
        return (
          <div key={index} className="vehicle-row">
            <div className="form-field">
              <label htmlFor={`${idPrefix}-${index}-type`}>{typeLabel}</label>
              <Dropdown
                inputId={`${idPrefix}-${index}-type`}
                value={item.type}
                options={options}
                onChange={(event) => update(index, { type: Number(event.value) })}
                filter={options.length > 10}
                invalid={Boolean(typeError)}
              />
              {typeError && <small className="p-error">{typeError}</small>}
            </div>
            <div className="form-field vehicle-count">
              <label htmlFor={`${idPrefix}-${index}-count`}>{t('account.carrier.count')}</label>
              <InputNumber
                inputId={`${idPrefix}-${index}-count`}
                value={item.count}
                min={1}
                max={9999}
                showButtons
                onValueChange={(event) => update(index, { count: Number(event.value ?? 0) })}
                invalid={Boolean(countError)}
              />
              {countError && <small className="p-error">{countError}</small>}
            </div>
            <Button
              type="button"
              icon="pi pi-trash"
              text
              rounded
              severity="danger"
              aria-label={t('account.carrier.remove')}
              onClick={() => onChange(items.filter((_, at) => at !== index))}
            />
          </div>
        );
      })}
      <Button
        type="button"
        icon="pi pi-plus"
        label={addLabel}
        outlined
        size="small"
        onClick={() => onChange([...items, { type: options[0]?.value ?? 1, count: 1 }])}
      />
    </div>
  );
}
