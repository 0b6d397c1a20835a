import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  PASSWORDS_DID_NOT_MATCH_MESSAGE,
  updateAccountBodySchema,
} from '../../../../domain/schemas/index.ts';
import { apiGet, apiPut, messageOf } from '../../api/http.ts';
import { fetchError, fetchStart, fetchSuccess } from '../../state/common.ts';
import { type AuthUser, appStore, authUserAtom } from '../../state/session.ts';
import type { AccountAnswer, MessageAnswer } from './account.api.ts';
import { FormActions, TextField } from '../../shared/forms/fields.tsx';
import { useFormState } from '../../shared/forms/useFormState.ts';

/** The server's answer when a new password or e-mail comes without the current password. */
const CURRENT_PASSWORD_REQUIRED_MESSAGE = 'Please enter your current password';

/**
 * The User tab's form: the profile, and optionally a password change: the current password, the new
 * one and the new one typed again (the two must be equal). A new password needs the current one.
 */
export const accountPasswordFormSchema = updateAccountBodySchema
  .extend({ retypePassword: z.string().optional() })
  .refine((form) => (form.newPassword ?? '') === (form.retypePassword ?? ''), {
    error: PASSWORDS_DID_NOT_MATCH_MESSAGE,
    path: ['retypePassword'],
  })
  .refine((form) => !form.newPassword || Boolean(form.oldPassword), {
    error: CURRENT_PASSWORD_REQUIRED_MESSAGE,
    path: ['oldPassword'],
  });

/** The User tab: name, email, username, phone; current password, new password, new password again. */
export function UserForm({
  user,
  onSaved,
  onCancel,
}: {
  user: NonNullable<AccountAnswer['user']>;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useFormState({
    name: user.name ?? '',
    email: user.email ?? '',
    username: user.username ?? '',
    oldPassword: '',
    newPassword: '',
    retypePassword: '',
    phone: user.phone ?? '',
  });
  const [busy, setBusy] = useState(false);
  const { values, set, errors } = form;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = form.validate(accountPasswordFormSchema);
    if (!parsed) return;
    setBusy(true);
    fetchStart();
    try {
      const answer = await apiPut<MessageAnswer>('/users', {
        name: parsed.name,
        email: parsed.email,
        username: parsed.username,
        phone: parsed.phone,
        // The current password: the server needs it to change the e-mail or the password.
        ...(parsed.oldPassword ? { oldPassword: parsed.oldPassword } : {}),
        ...(parsed.newPassword ? { newPassword: parsed.newPassword } : {}),
      });
      // A password or e-mail change ends every other session; this one stays signed in with its tokens.
      appStore.set(authUserAtom, await apiGet<AuthUser>('/profile'));
      form.setValues((current) => ({
        ...current,
        oldPassword: '',
        newPassword: '',
        retypePassword: '',
      }));
      fetchSuccess(answer?.message ?? 'Account successfully updated');
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
          id="account-name"
          label={t('account.user.name')}
          value={values.name}
          onChange={(v) => set('name', v)}
          error={errors.name}
          autoComplete="name"
          required
        />
        <TextField
          id="account-email"
          type="email"
          label={t('account.user.email')}
          value={values.email}
          onChange={(v) => set('email', v)}
          error={errors.email}
          autoComplete="email"
          required
        />
        <TextField
          id="account-username"
          label={t('account.user.username')}
          value={values.username}
          onChange={(v) => set('username', v)}
          error={errors.username}
          autoComplete="username"
          required
        />
        <TextField
          id="account-phone"
          type="tel"
          label={t('account.user.phone')}
          value={values.phone}
          onChange={(v) => set('phone', v)}
          error={errors.phone}
          autoComplete="tel"
          hint={t('account.phoneHint')}
          required
        />
        <TextField
          id="account-old-password"
          type="password"
          label={t('account.user.oldPassword')}
          value={values.oldPassword}
          onChange={(v) => set('oldPassword', v)}
          error={errors.oldPassword}
          autoComplete="current-password"
        />
        <TextField
          id="account-new-password"
          type="password"
          label={t('account.user.newPassword')}
          value={values.newPassword}
          onChange={(v) => set('newPassword', v)}
          error={errors.newPassword}
          autoComplete="new-password"
        />
        <TextField
          id="account-retype-password"
          type="password"
          label={t('account.user.retypePassword')}
          value={values.retypePassword}
          onChange={(v) => set('retypePassword', v)}
          error={errors.retypePassword}
          autoComplete="new-password"
        />
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
