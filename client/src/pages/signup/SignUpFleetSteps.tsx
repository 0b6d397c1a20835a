import { Checkbox } from 'primereact/checkbox';
import { RadioButton } from 'primereact/radiobutton';
import { useTranslation } from 'react-i18next';
import {
  driverTeams,
  insuredAmounts,
  trailerTypes,
  truckTypes,
} from '../../../../domain/catalog.ts';
import { VehicleList } from '../../shared/forms/VehicleList.tsx';
import type { StepProps } from './SignUpSteps.tsx';

/** Trucks, driver teams and trailers as lists of type and count. */
export function FleetStep({ values, set, errors }: StepProps) {
  const { t } = useTranslation();
  const truckOptions = truckTypes.map((entry) => ({
    value: entry.id,
    label: t(`catalog.trucks.${entry.id}` as never) as string,
  }));
  const teamOptions = driverTeams.map((entry) => ({
    value: entry.id,
    label: t(`catalog.driverTeams.${entry.id}` as never) as string,
  }));
  const trailerOptions = trailerTypes.map((entry) => ({ value: entry.id, label: entry.name }));
  return (
    <div className="signup-fleet">
      <p className="signup-step-hint">{t('signup.fleetHint')}</p>
      <fieldset className="signup-fieldset">
        <legend>{t('account.carrier.trucks')}</legend>
        <VehicleList
          idPrefix="trucks"
          items={values.trucks}
          options={truckOptions}
          onChange={(items) => set('trucks', items)}
          errors={errors}
          addLabel={t('account.carrier.addTruck')}
          typeLabel={t('account.carrier.truckType')}
        />
      </fieldset>
      <fieldset className="signup-fieldset">
        <legend>{t('account.carrier.driverTeams')}</legend>
        <VehicleList
          idPrefix="driverTeams"
          items={values.driverTeams}
          options={teamOptions}
          onChange={(items) => set('driverTeams', items)}
          errors={errors}
          addLabel={t('account.carrier.addDriverTeam')}
          typeLabel={t('account.carrier.driverTeam')}
        />
      </fieldset>
      <fieldset className="signup-fieldset">
        <legend>{t('account.carrier.trailers')}</legend>
        <VehicleList
          idPrefix="trailers"
          items={values.trailers}
          options={trailerOptions}
          onChange={(items) => set('trailers', items)}
          errors={errors}
          addLabel={t('account.carrier.addTrailer')}
          typeLabel={t('account.carrier.trailerType')}
        />
      </fieldset>
    </div>
  );
}

/** 'Accept Terms & Conditions', with the terms a new tab away so nothing typed is lost. */
export function TermsCheck({ values, set, errors }: StepProps) {
  const { t } = useTranslation();
  return (
    <div className="form-field signup-terms">
      <div className="check-row">
        <Checkbox
          inputId="signup-terms"
          checked={values.acceptTerms}
          onChange={(event) => set('acceptTerms', Boolean(event.checked))}
          invalid={Boolean(errors.acceptTerms)}
          aria-describedby={errors.acceptTerms ? 'signup-terms-error' : undefined}
        />
        <label htmlFor="signup-terms">{t('signup.acceptTerms')}</label>
        <a href="/terms" target="_blank" rel="noreferrer" className="signup-terms-link">
          {t('signup.readTerms')} <i className="pi pi-external-link" aria-hidden="true" />
        </a>
      </div>
      {errors.acceptTerms && (
        <small id="signup-terms-error" className="p-error">
          {errors.acceptTerms}
        </small>
      )}
    </div>
  );
}

/** A shipper's insurance amount ('< $100,000.00' or '> $100,000.00') and the terms. */
export function InsuranceStep(props: StepProps) {
  const { t } = useTranslation();
  const { values, set, errors } = props;
  return (
    <>
      <fieldset
        className="signup-fieldset"
        aria-describedby={errors.insuredAmount ? 'signup-insured-error' : undefined}
      >
        <legend>{t('account.shipper.insuredAmount')} *</legend>
        <div className="choice-cards">
          {insuredAmounts.map((entry) => (
            <label
              key={entry.id}
              className={`choice-card${values.insuredAmount === entry.id ? ' is-selected' : ''}`}
              htmlFor={`signup-insured-${entry.id}`}
            >
              <RadioButton
                inputId={`signup-insured-${entry.id}`}
                name="insuredAmount"
                value={entry.id}
                checked={values.insuredAmount === entry.id}
                onChange={() => set('insuredAmount', entry.id)}
              />
              <span className="choice-card-text tabular">
                {t(`catalog.insuredAmounts.${entry.id}` as never)}
              </span>
            </label>
          ))}
        </div>
        {errors.insuredAmount && (
          <small id="signup-insured-error" className="p-error">
            {errors.insuredAmount}
          </small>
        )}
      </fieldset>
      <TermsCheck {...props} />
    </>
  );
}
