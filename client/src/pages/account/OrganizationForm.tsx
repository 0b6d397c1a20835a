import { useAtom } from 'jotai';
import { Checkbox } from 'primereact/checkbox';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactChangePending } from '../../../../domain/contracts/organizationContactChange.contract.ts';
import { contactNeedsHold } from '../../../../domain/organizations/organizationContact.decide.ts';
import { organizationContactSchema } from '../../../../domain/schemas/index.ts';
import { apiPut, messageOf } from '../../api/http.ts';
import { formatLocal } from '../../shared/format.ts';
import { fetchError, fetchStart, fetchSuccess } from '../../state/common.ts';
import { authUserAtom } from '../../state/session.ts';
import type { AccountAnswer, MessageAnswer } from './account.api.ts';
import { FormActions, TextField } from '../../shared/forms/fields.tsx';
import { useFormState } from '../../shared/forms/useFormState.ts';
import './organizationForm.css';

/**
 * The Organisation tab: company name, contact person, address, phone and e-mail, and whether every
 * member must sign in with two-factor (from each member's next sign-in). A new contact e-mail or
 * phone asks for the password (and the code when the user has two-factor on) and waits 24 hours:
 * the pending change is shown, with the time it takes effect.
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
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
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
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const { values, set, errors } = form;
  // A new e-mail or phone (the server's rule): confirmed with the password, and the code when two-factor is on.
  const held = contactNeedsHold(
    {
      address: organization.address,
      person: organization.person,
      email: organization.email,
      phone: organization.phone,
    },
    { address: values.address, person: values.person, email: values.email, phone: values.phone },
  );
  const twoFactorOn = user?.twoFactor?.enabled === true;
  const pending = organization.pendingContactChange ?? null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = form.validate(organizationContactSchema);
    if (!parsed) return;
    if (held && (!password || (twoFactorOn && !code.trim()))) {
      form.setErrors({
        ...(password ? {} : { password: t('messages.oldPasswordRequired') }),
        ...(twoFactorOn && !code.trim() ? { code: t('messages.twoFactorCodeRequired') } : {}),
      });
      return;
    }
    setBusy(true);
    fetchStart();
    try {
      const answer = await apiPut<MessageAnswer | ContactChangePending>('/users/organization', {
        ...parsed,
        twoFactorRequired,
        ...(held ? { password, ...(twoFactorOn ? { code: code.trim() } : {}) } : {}),
      });
      if (user?.twoFactor)
        setUser({
          ...user,
          twoFactor: { ...user.twoFactor, organizationRequired: twoFactorRequired },
        });
      if (answer && 'pendingUntil' in answer)
        fetchSuccess(t('contactHold.saved', { date: formatLocal(answer.pendingUntil, lng) }));
      else
        fetchSuccess(
          (answer && 'message' in answer ? answer.message : null) ??
            'Organization successfully updated',
        );
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
      {pending && (
        <section className="contact-pending" role="status" aria-labelledby="contact-pending-title">
          <h3 id="contact-pending-title">{t('contactHold.pendingTitle')}</h3>
          <p>{t('contactHold.pendingUntil', { date: formatLocal(pending.pendingUntil, lng) })}</p>
          <dl>
            <dt>{t('account.organization.person')}</dt>
            <dd>{pending.person}</dd>
            <dt>{t('account.organization.address')}</dt>
            <dd>{pending.address}</dd>
            <dt>{t('account.organization.phone')}</dt>
            <dd>{pending.phone}</dd>
            <dt>{t('account.organization.email')}</dt>
            <dd>{pending.email}</dd>
          </dl>
          <p>{t('contactHold.pendingCancel')}</p>
        </section>
      )}
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
      {held && (
        <fieldset className="contact-confirm">
          <legend>{t('contactHold.confirmTitle')}</legend>
          <p className="form-hint">{t('contactHold.confirmText', { email: organization.email })}</p>
          <TextField
            id="org-change-password"
            type="password"
            label={t('contactHold.password')}
            value={password}
            onChange={(v) => {
              setPassword(v);
              if (errors.password) form.setErrors({ ...errors, password: '' });
            }}
            error={errors.password}
            autoComplete="current-password"
            required
          />
          {twoFactorOn && (
            <TextField
              id="org-change-code"
              label={t('contactHold.code')}
              value={code}
              onChange={(v) => {
                setCode(v);
                if (errors.code) form.setErrors({ ...errors, code: '' });
              }}
              error={errors.code}
              autoComplete="one-time-code"
              required
            />
          )}
        </fieldset>
      )}
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
