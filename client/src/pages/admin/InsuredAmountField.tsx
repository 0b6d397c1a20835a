import { RadioButton } from 'primereact/radiobutton';
import { useTranslation } from 'react-i18next';
import { insuredAmounts } from '../../../../domain/catalog.ts';
import type { OrganizationValues, SetValue } from './addOrganizationForm.ts';

/** A shipper's insured amount, one card per amount of the catalog. */
export function InsuredAmountField({
  values,
  set,
  error,
}: {
  values: OrganizationValues;
  set: SetValue;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="signup-fieldset">
      <legend>{t('account.shipper.insuredAmount')} *</legend>
      <div className="choice-cards">
        {insuredAmounts.map((entry) => (
          <label
            key={entry.id}
            className={`choice-card${values.insuredAmount === entry.id ? ' is-selected' : ''}`}
            htmlFor={`org-insured-${entry.id}`}
          >
            <RadioButton
              inputId={`org-insured-${entry.id}`}
              name="insuredAmount"
              value={entry.id}
              checked={values.insuredAmount === entry.id}
              onChange={() => set('insuredAmount', entry.id)}
            />
            <span className="tabular">{t(`catalog.insuredAmounts.${entry.id}` as never)}</span>
          </label>
        ))}
      </div>
      {error !== undefined && <small className="p-error">{error}</small>}
    </fieldset>
  );
}
