import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import type { MessageAnswer } from '../../../../domain/contracts/common.ts';
import {
  confirmSignupBodySchema,
  resendSignupCodeBodySchema,
} from '../../../../domain/schemas/index.ts';
import { ApiError, apiPost, messageOf } from '../../api/http.ts';
import { paths } from '../../app/paths.ts';
import { fieldErrorsOf } from '../../shared/forms/useFormState.ts';
import { TextField } from '../../shared/forms/fields.tsx';
import { AuthFrame } from '../../shared/auth/AuthFrame.tsx';
import { fieldOfMessage, useMessageText } from '../../components/messages.ts';
import { storedSignUpEmail } from './SignUpCompletePage.tsx';

/**
 * /confirm-signup: the e-mail address and the 6-digit code; then the account waits for an
 * administrator. `started=1`: the sign-up form found this registration begun already. A new code can
 * be asked for; the server answers the same whatever the address.
 */
export default function ConfirmSignUpPage() {
  const { t } = useTranslation();
  const search = useSearch();
  const messageText = useMessageText();
  const [started] = useState(() => new URLSearchParams(search).get('started') === '1');
  const [resent, setResent] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const [noRecord, setNoRecord] = useState(false);
  const [email, setEmail] = useState(
    () => new URLSearchParams(search).get('email') ?? storedSignUpEmail(),
  );
  const [code, setCode] = useState(() => new URLSearchParams(search).get('code') ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function resend() {
    setFormError(null);
    setResent(null);
    const parsed = resendSignupCodeBodySchema.safeParse({ email });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error.issues));
      return;
    }
    setErrors({});
    setResending(true);
    try {
      const answer = await apiPost<MessageAnswer>('/confirm-signup/resend', parsed.data, {
        auth: false,
      });
      setExpired(false);
      setNoRecord(false);
      setCode('');
      setResent(answer?.message ?? '');
    } catch (failure) {
      setFormError(messageOf(failure));
    } finally {
      setResending(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    setExpired(false);
    setNoRecord(false);
    const parsed = confirmSignupBodySchema.safeParse({ email, code });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await apiPost('/confirm-signup', parsed.data, { auth: false });
      setDone(true);
    } catch (failure) {
      const message = messageOf(failure);
      if (failure instanceof ApiError && failure.status === 410) setExpired(true);
      else if (
        failure instanceof ApiError &&
        (failure.errors.some((item) => item.path === 'code') || fieldOfMessage(message) === 'code')
      ) {
        setErrors({ code: message });
        // The same for a wrong code, an unknown address and a confirmed one: it tells no one which.
        setNoRecord(true);
      } else setFormError(message);
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <AuthFrame
        title={t('signup.confirmedTitle')}
        subtitle={t('publicMessages.signUpConfirmed')}
        icon="pi-verified"
      >
        <div className="auth-form">
          <p className="auth-note">{t('signup.confirmedHint')}</p>
          <Link href={paths.signIn} className="p-button p-component auth-submit">
            <i className="pi pi-sign-in p-button-icon p-button-icon-left" aria-hidden="true" />
            <span className="p-button-label">{t('signIn.submit')}</span>
          </Link>
        </div>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame
      title={t('routes.confirmSignUp')}
      subtitle={t('signup.confirmSubtitle')}
      icon="pi-envelope"
    >
      <form className="auth-form" onSubmit={submit} noValidate>
        {started && !resent && (
          <Message
            severity="info"
            text={t('publicMessages.registrationPending')}
            className="form-message"
          />
        )}
        {resent !== null && (
          <Message
            severity="success"
            text={resent ? messageText(resent) : t('publicMessages.codeResent')}
            className="form-message"
          />
        )}
        {formError && (
          <Message severity="error" text={messageText(formError)} className="form-message" />
        )}
        {noRecord && (
          <Message severity="warn" text={t('signup.noRecordFound')} className="form-message" />
        )}
        {expired && (
          <Message
            severity="warn"
            className="form-message"
            content={
              <span>
                {t('publicMessages.codeExpired')}{' '}
                <Link href="/signup/select">{t('signup.registerAgain')}</Link>
              </span>
            }
          />
        )}
        <TextField
          id="confirm-email"
          type="email"
          label={t('auth.email')}
          value={email}
          onChange={setEmail}
          error={errors.email ? messageText(errors.email) : undefined}
          autoComplete="email"
          required
        />
        <div className="form-field">
          <label htmlFor="confirm-code">
            {t('signup.code')}
            <span aria-hidden="true"> *</span>
          </label>
          <InputText
            id="confirm-code"
            className="code-input tabular"
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder="••••••"
            invalid={Boolean(errors.code)}
            aria-describedby={
              errors.code ? 'confirm-code-hint confirm-code-error' : 'confirm-code-hint'
            }
          />
          <small id="confirm-code-hint" className="field-hint">
            {t('signup.codeHint')}
          </small>
          {errors.code && (
            <small id="confirm-code-error" className="p-error">
              {messageText(errors.code)}
            </small>
          )}
        </div>
        <Button
          type="submit"
          label={t('signup.confirm')}
          icon="pi pi-check"
          loading={busy}
          className="auth-submit"
        />
        <Button
          type="button"
          label={t('signup.sendAgain')}
          icon="pi pi-replay"
          outlined
          severity="secondary"
          loading={resending}
          onClick={resend}
          className="auth-submit"
        />
      </form>
    </AuthFrame>
  );
}
