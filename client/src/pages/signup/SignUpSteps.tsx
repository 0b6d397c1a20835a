import { Checkbox } from 'primereact/checkbox';
import { RadioButton } from 'primereact/radiobutton';
import { useTranslation } from 'react-i18next';
import {
  driverTeams,
  insuredAmounts,
  trailerTypes,
  truckTypes,
} from '../../../../domain/catalog.ts';
import { FileDropZone } from '../../components/FileDropZone.tsx';
import { TextField } from '../../shared/forms/fields.tsx';
import { VehicleList } from '../../shared/forms/VehicleList.tsx';
import {
  documentFields,
  type DocumentField,
  type SignUpFiles,
  type SignUpValues,
} from './signUp.model.ts';

export interface StepProps {
  values: SignUpValues;
  set: <K extends keyof SignUpValues>(field: K, value: SignUpValues[K]) => void;
  /** Already translated, by field name. */
  errors: Record<string, string>;
}

/** Name, e-mail, username, password twice and phone (specification "Sign-up field groups", user fields). */
export function AccountStep({ values, set, errors }: StepProps) {
  const { t } = useTranslation();
  return (
    <div className="form-grid signup-grid">
      <TextField
        id="signup-name"
        label={t('signup.name')}
        value={values.name}
        onChange={(v) => set('name', v)}
        error={errors.name}
        autoComplete="name"
        required
      />
      <TextField
        id="signup-email"
        type="email"
        label={t('signup.email')}
        value={values.email}
        onChange={(v) => set('email', v)}
        error={errors.email}
        autoComplete="email"
        required
      />
      <TextField
        id="signup-username"
        label={t('signup.username')}
        value={values.username}
        onChange={(v) => set('username', v)}
        error={errors.username}
        autoComplete="username"
        required
      />
      <TextField
        id="signup-phone"
        type="tel"
        label={t('signup.phone')}
        value={values.phone}
        onChange={(v) => set('phone', v)}
        error={errors.phone}
        autoComplete="tel"
        hint={t('account.phoneHint')}
        required
      />
      <TextField
        id="signup-password"
        type="password"
        label={t('signup.password')}
        value={values.password}
        onChange={(v) => set('password', v)}
        error={errors.password}
        autoComplete="new-password"
        hint={t('auth.passwordHint')}
        required
      />
      <TextField
        id="signup-confirm"
        type="password"
        label={t('signup.confirmPassword')}
        value={values.confirmPassword}
        onChange={(v) => set('confirmPassword', v)}
        error={errors.confirmPassword}
        autoComplete="new-password"
        required
      />
    </div>
  );
}

/** The organisation fields: company name, contact person, address, phone, e-mail. */
export function CompanyStep({ values, set, errors }: StepProps) {
  const { t } = useTranslation();
  return (
    <div className="form-grid signup-grid">
      <TextField
        id="signup-company"
        label={t('account.organization.name')}
        value={values.companyName}
        onChange={(v) => set('companyName', v)}
        error={errors.companyName}
        autoComplete="organization"
        required
      />
      <TextField
        id="signup-person"
        label={t('account.organization.person')}
        value={values.person}
        onChange={(v) => set('person', v)}
        error={errors.person}
        required
      />
      <TextField
        id="signup-address"
        label={t('account.organization.address')}
        value={values.address}
        onChange={(v) => set('address', v)}
        error={errors.address}
        autoComplete="street-address"
        required
      />
      <TextField
        id="signup-company-phone"
        type="tel"
        label={t('account.organization.phone')}
        value={values.companyPhone}
        onChange={(v) => set('companyPhone', v)}
        error={errors.companyPhone}
        hint={t('account.phoneHint')}
        required
      />
      <TextField
        id="signup-company-email"
        type="email"
        label={t('account.organization.email')}
        value={values.companyEmail}
        onChange={(v) => set('companyEmail', v)}
        error={errors.companyEmail}
        required
      />
    </div>
  );
}

/** MC and DOT numbers and the three PDFs a carrier registers with. */
export function AuthorityStep({
  values,
  set,
  errors,
  files,
  onFile,
}: StepProps & { files: SignUpFiles; onFile: (field: DocumentField, file: File | null) => void }) {
  const { t } = useTranslation();
  const labels: Record<DocumentField, string> = {
    mcAuthority: t('account.carrier.mcAuthority'),
    certificateOfInsurance: t('account.carrier.certificateOfInsurance'),
    w9Form: t('account.carrier.w9Form'),
  };
  return (
    <>
      <div className="form-grid signup-grid">
        <TextField
          id="signup-mc"
          type="number"
          label={t('account.carrier.mcNumber')}
          value={values.mcNumber}
          onChange={(v) => set('mcNumber', v)}
          error={errors.mcNumber}
          required
        />
        <TextField
          id="signup-dot"
          type="number"
          label={t('account.carrier.dotNumber')}
          value={values.dotNumber}
          onChange={(v) => set('dotNumber', v)}
          error={errors.dotNumber}
          required
        />
      </div>
      <div className="file-grid signup-files">
        {documentFields.map((field) => (
          <FileDropZone
            key={field}
            label={`${labels[field]} *`}
            accept="application/pdf,.pdf"
            file={files[field] ?? null}
            onFile={(file) => onFile(field, file)}
            error={errors[field]}
            hint={t('files.pdfHint')}
          />
        ))}
      </div>
    </>
  );
}

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

/** The carrier's last step: what will be sent, and the terms. */
export function ReviewStep(props: StepProps & { files: SignUpFiles }) {
  const { t } = useTranslation();
  const { values, files } = props;
  const total = (lines: { count: number }[]) => lines.reduce((sum, line) => sum + line.count, 0);
  const rows: [string, string][] = [
    [t('signup.name'), `${values.name} · ${values.email}`],
    [t('account.organization.name'), `${values.companyName} · ${values.companyPhone}`],
    [t('signup.authority'), `MC ${values.mcNumber} · DOT ${values.dotNumber}`],
    [
      t('signup.documents'),
      t('signup.documentsCount', {
        uploaded: documentFields.filter((field) => files[field]).length,
      }),
    ],
    [
      t('signup.fleet'),
      t('signup.fleetSummary', {
        trucks: total(values.trucks),
        teams: total(values.driverTeams),
        trailers: total(values.trailers),
      }),
    ],
  ];
  return (
    <>
      <dl className="signup-review">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <TermsCheck {...props} />
    </>
  );
}
