import { RadioButton } from 'primereact/radiobutton';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STANDARD_TERMS } from '../../../../domain/loads/terms.ts';
import { ApiError, apiPut, messageOf } from '../../api/http.ts';
import { FormActions } from '../../shared/forms/fields.tsx';
import { TermsDetails } from '../../shared/terms/TermsSummary.tsx';
import { type TermsFieldErrors, TermsFields } from '../../shared/terms/TermsFields.tsx';
import {
  type AccessorialTerms,
  type TermsFormValues,
  termsFormOf,
  termsOf,
  termsPaths,
  toTerms,
  validateTerms,
} from '../../shared/terms/terms.ts';
import { fetchError, fetchStart, fetchSuccess } from '../../state/common.ts';
import type { AccountAnswer, MessageAnswer } from './account.api.ts';

type Organization = NonNullable<AccountAnswer['organization']>;

/** The server names a default's field `defaultTerms.tonu`; the terms fields know it as `terms.tonu`. */
const asTermsPath = (path: string) =>
  path.startsWith('defaultTerms.') ? `terms.${path.slice('defaultTerms.'.length)}` : path;

/**
 * A shipper's default accessorial terms (the Default terms tab, for whoever may change the
 * organization): the platform's, or the organization's own, which its new loads then take unless the
 * load form says otherwise. Saved with `PUT /api/users/organization` (the contact as it stands, and
 * `defaultTerms`: null for the platform's).
 */
export function DefaultTermsForm({
  organization,
  onSaved,
  onCancel,
}: {
  organization: Organization;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const current: AccessorialTerms | null = termsOf({ terms: organization.defaultTerms });
  const [own, setOwn] = useState(current !== null);
  const [values, setValues] = useState<TermsFormValues>(() =>
    termsFormOf(current ?? STANDARD_TERMS, true),
  );
  const [errors, setErrors] = useState<TermsFieldErrors>({});
  const [busy, setBusy] = useState(false);

  const change = (next: TermsFormValues) => {
    const edited = (Object.keys(termsPaths) as (keyof typeof termsPaths)[])
      .filter((field) => next[field] !== values[field])
      .map((field) => termsPaths[field]);
    setValues(next);
    // An edited field shows its message the moment it is wrong and loses it once right; the
    // others keep theirs (the server's).
    const found = validateTerms(next);
    setErrors((shown) => {
      const kept = { ...shown };
      for (const path of edited) {
        const error = found[path];
        if (error) kept[path] = error;
        else delete kept[path];
      }
      return kept;
    });
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = own ? validateTerms(values) : {};
    if (Object.keys(found).length > 0) {
      setErrors(found);
      return;
    }
    setBusy(true);
    fetchStart();
    try {
      await apiPut<MessageAnswer>('/users/organization', {
        name: organization.name,
        person: organization.person,
        address: organization.address,
        phone: organization.phone,
        email: organization.email,
        defaultTerms: own ? toTerms({ ...values, enabled: true }) : null,
      });
      setErrors({});
      fetchSuccess(t('accessorials.defaults.saved'));
      onSaved();
    } catch (error) {
      if (error instanceof ApiError) {
        const fromServer: TermsFieldErrors = {};
        for (const item of error.errors)
          if (item.path) fromServer[asTermsPath(item.path)] ??= item.message;
        setErrors(fromServer);
      }
      fetchError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="account-form default-terms-form" onSubmit={submit} noValidate>
      <p className="form-hint">{t('accessorials.defaults.intro')}</p>
      <div
        className="default-terms-choice"
        role="radiogroup"
        aria-label={t('accessorials.defaults.title')}
      >
        <div className="form-check">
          <RadioButton
            inputId="default-terms-platform"
            name="default-terms"
            value="platform"
            checked={!own}
            onChange={() => setOwn(false)}
          />
          <label htmlFor="default-terms-platform">{t('accessorials.defaults.platform')}</label>
        </div>
        <div className="form-check">
          <RadioButton
            inputId="default-terms-own"
            name="default-terms"
            value="own"
            checked={own}
            onChange={() => setOwn(true)}
          />
          <label htmlFor="default-terms-own">{t('accessorials.defaults.own')}</label>
        </div>
      </div>
      {own ? (
        <TermsFields
          id="default-terms"
          values={{ ...values, enabled: true }}
          onChange={change}
          errors={errors}
          hideToggle
        />
      ) : (
        <TermsDetails
          of={{ terms: STANDARD_TERMS }}
          title={t('accessorials.defaults.platformTitle')}
          headingLevel={3}
        />
      )}
      <FormActions
        onCancel={onCancel}
        busy={busy}
        cancelLabel={t('common.cancel')}
        saveLabel={t('common.saveChanges')}
      />
    </form>
  );
}
