import { useTranslation } from 'react-i18next';
import { FileDropZone } from '../../components/FileDropZone.tsx';
import { TextField } from '../../shared/forms/fields.tsx';
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
