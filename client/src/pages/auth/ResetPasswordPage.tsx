import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import {
  PASSWORDS_MUST_MATCH_MESSAGE,
  resetPasswordBodySchema,
} from '../../../../domain/schemas/index.ts';
import { ApiError, apiPost, messageOf } from '../../api/http.ts';
import type { MessageAnswer } from '../../../../domain/contracts/common.ts';
import { paths } from '../../app/paths.ts';
import { notify } from '../../state/common.ts';
import { TextField } from '../../shared/forms/fields.tsx';
import { fieldErrorsOf } from '../../shared/forms/useFormState.ts';
import { AuthFrame } from '../../shared/auth/AuthFrame.tsx';
import { useMessageText } from '../../components/messages.ts';

/** /reset-password?code=…: the code from the e-mailed link and the new password twice; then /signin/select. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const search = useSearch();
  const messageText = useMessageText();
  const [code, setCode] = useState(() => new URLSearchParams(search).get('code') ?? '');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [noUser, setNoUser] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    setNoUser(false);
    const parsed = resetPasswordBodySchema.safeParse({ code, newPassword: password });
    const found = parsed.success ? {} : fieldErrorsOf(parsed.error.issues);
    if (!found.newPassword && password !== confirm) found.confirm = PASSWORDS_MUST_MATCH_MESSAGE;
    setErrors(
      Object.fromEntries(
        Object.entries(found).map(([key, message]) => [key, messageText(message)]),
      ),
    );
    if (!parsed.success || found.confirm) return;
    setBusy(true);
    try {
      const answer = await apiPost<MessageAnswer>('/users/reset-password', parsed.data, {
        auth: false,
      });
      notify('success', messageText(answer?.message ?? 'New password set successfully'));
      navigate(paths.signInSelect);
    } catch (failure) {
      const message = messageText(messageOf(failure));
      if (failure instanceof ApiError && failure.errors.some((item) => item.path === 'code')) {
        setErrors({ code: message });
        // The reset code is the only key: no address is named, so saying so tells nothing about one.
        setNoUser(failure.code === 'reset_code_invalid');
      } else setFormError(message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthFrame title={t('routes.resetPassword')} subtitle={t('auth.resetSubtitle')} icon="pi-lock">
      <form className="auth-form" onSubmit={submit} noValidate>
        {formError && <Message severity="error" text={formError} className="form-message" />}
        {noUser && (
          <Message severity="warn" text={t('auth.noUserFound')} className="form-message" />
        )}
        <TextField
          id="reset-code"
          label={t('auth.resetCode')}
          value={code}
          onChange={setCode}
          error={errors.code}
          autoComplete="one-time-code"
          required
        />
        <TextField
          id="reset-password"
          type="password"
          label={t('auth.newPassword')}
          value={password}
          onChange={setPassword}
          error={errors.newPassword}
          autoComplete="new-password"
          hint={t('auth.passwordHint')}
          required
        />
        <TextField
          id="reset-confirm"
          type="password"
          label={t('auth.retypePassword')}
          value={confirm}
          onChange={setConfirm}
          error={errors.confirm}
          autoComplete="new-password"
          required
        />
        <Button
          type="submit"
          label={t('auth.setPassword')}
          icon="pi pi-check"
          loading={busy}
          className="auth-submit"
        />
        <p className="auth-switch">
          <Link href={paths.forgetPassword}>{t('auth.requestNewCode')}</Link>
        </p>
      </form>
    </AuthFrame>
  );
}
