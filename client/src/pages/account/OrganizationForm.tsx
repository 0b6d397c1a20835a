import { useAtom } from 'jotai';
import { Checkbox } from 'primereact/checkbox';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { organizationContactSchema } from '../../../../domain/schemas/index.ts';
import { apiPut, messageOf } from '../../api/http.ts';
import { fetchError, fetchStart, fetchSuccess } from '../../state/common.ts';
import { authUserAtom } from '../../state/session.ts';
import type { AccountAnswer, MessageAnswer } from './account.api.ts';
import { FormActions, TextField } from '../../shared/forms/fields.tsx';
import { useFormState } from '../../shared/forms/useFormState.ts';

/**
 * The Organisation tab: company name, contact person, address, phone and e-mail, and whether every
 * member must sign in with two-factor (from each member's next sign-in).
 */
export function OrganizationForm({
  organization,
  onSaved,
  onCancel,
}: {
  organization: NonNullable<AccountAnswer['organization']>;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useFormState({
    name: organization.name ?? '',
    person: organization.person ?? '',
    address: organization.address ?? '',
    phone: organization.phone ?? '',
    email: organization.email ?? '',
  });
  const [busy, setBusy] = useState(false);
  const [user, setUser] = useAtom(authUserAtom);
  const [twoFactorRequired, setTwoFactorRequired] = useState(
    user?.twoFactor?.organizationRequired ?? false,
  );
  const { values, set, errors } = form;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = form.validate(organizationContactSchema);
    if (!parsed) return;
    setBusy(true);
    fetchStart();
    try {
      const answer = await apiPut<MessageAnswer>('/users/organization', {
        ...parsed,
        twoFactorRequired,
      });
      if (user?.twoFactor)
        setUser({
          ...user,
          twoFactor: { ...user.twoFactor, organizationRequired: twoFactorRequired },
        });
      fetchSuccess(answer?.message ?? 'Organization successfully updated');
      onSaved();
    } catch (error) {
      form.showServerErrors(error);
      fetchError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="account-form" onSubmit={submit} noValidate>
      <div className="form-grid">
        <TextField
          id="org-name"
          label={t('account.organization.name')}
          value={values.name}
          onChange={(v) => set('name', v)}
          error={errors.name}
          autoComplete="organization"
          required
        />
        <TextField
          id="org-person"
          label={t('account.organization.person')}
          value={values.person}
          onChange={(v) => set('person', v)}
          error={errors.person}
          autoComplete="name"
          required
        />
        <TextField
          id="org-address"
          label={t('account.organization.address')}
          value={values.address}
          onChange={(v) => set('address', v)}
          error={errors.address}
          autoComplete="street-address"
          required
        />
        <TextField
          id="org-phone"
          type="tel"
          label={t('account.organization.phone')}
          value={values.phone}
          onChange={(v) => set('phone', v)}
          error={errors.phone}
          autoComplete="tel"
          hint={t('account.phoneHint')}
          required
        />
        <TextField
          id="org-email"
          type="email"
          label={t('account.organization.email')}
          value={values.email}
          onChange={(v) => set('email', v)}
          error={errors.email}
          autoComplete="email"
          required
        />
      </div>
      <div className="form-field form-check">
        <Checkbox
          inputId="org-two-factor-required"
          checked={twoFactorRequired}
          onChange={(event) => setTwoFactorRequired(event.checked === true)}
        />
        <label htmlFor="org-two-factor-required">{t('twoFactor.organizationRequired')}</label>
        <small className="form-hint">{t('twoFactor.organizationRequiredHint')}</small>
      </div>
      <FormActions
        onCancel={onCancel}
        busy={busy}
        cancelLabel={t('common.cancel')}
        saveLabel={t('common.saveChanges')}
      />
    </form>
  );
}
