import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { Password } from 'primereact/password';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { ApiError, apiPost } from '../../api/http.ts';
import { paths } from '../../app/paths.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { preloadShell } from '../../app/shellPreload.ts';
import { type Session, signInWith } from '../../state/session.ts';
import { AuthFrame } from '../../shared/auth/AuthFrame.tsx';
import { useMessageText } from '../../components/messages.ts';

type Field = 'email' | 'password';
type FieldErrors = Partial<Record<Field, string>>;

function serverFieldErrors(error: ApiError, translate: (message: string) => string): FieldErrors {
  const result: FieldErrors = {};
  for (const { path, message } of error.errors) {
    if (path === 'email' || path === 'password') result[path] ??= translate(message);
  }
  return result;
}

/** /signin, and /signin/select where a password reset leads: the same form, with a word on the new password. */
export default function SignInPage({ titleKey }: Partial<PageProps>) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const messageText = useMessageText();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const afterReset = titleKey === 'routes.signInSelect';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing: FieldErrors = {};
    if (email.trim() === '') missing.email = t('signIn.emailRequired');
    if (password === '') missing.password = t('signIn.passwordRequired');
    setFieldErrors(missing);
    setFormError(null);
    if (Object.keys(missing).length > 0) return;

    setBusy(true);
    // The signed-in shell's code loads while the credentials are checked: the home page opens in it.
    preloadShell();
    try {
      signInWith(
        await apiPost<Session>('/login', { email: email.trim(), password }, { auth: false }),
      );
      // The guard takes it from the root: the remembered path, or the home page of the role.
      navigate(paths.landing, { replace: true });
    } catch (error) {
      if (error instanceof ApiError) {
        setFormError(messageText(error.message));
        setFieldErrors(serverFieldErrors(error, messageText));
      } else {
        setFormError(t('signIn.networkError'));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthFrame title={t('signIn.title')} subtitle={t('auth.signInSubtitle')} icon="pi-sign-in">
      <form className="auth-form" onSubmit={submit} noValidate>
        {afterReset && (
          <Message severity="success" text={t('auth.afterReset')} className="form-message" />
        )}
        {formError && <Message severity="error" text={formError} className="form-message" />}

        <div className="form-field">
          <label htmlFor="signin-email">{t('signIn.email')}</label>
          <InputText
            id="signin-email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            invalid={fieldErrors.email !== undefined}
            aria-describedby={fieldErrors.email ? 'signin-email-error' : undefined}
            autoFocus
          />
          {fieldErrors.email && (
            <small id="signin-email-error" className="p-error">
              {fieldErrors.email}
            </small>
          )}
        </div>

        <div className="form-field">
          <div className="field-label-row">
            <label htmlFor="signin-password">{t('signIn.password')}</label>
            <Link href={paths.forgetPassword} className="field-label-link">
              {t('signIn.forgotPassword')}
            </Link>
          </div>
          <Password
            inputId="signin-password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            invalid={fieldErrors.password !== undefined}
            aria-describedby={fieldErrors.password ? 'signin-password-error' : undefined}
            feedback={false}
            toggleMask
          />
          {fieldErrors.password && (
            <small id="signin-password-error" className="p-error">
              {fieldErrors.password}
            </small>
          )}
        </div>

        <Button
          type="submit"
          label={t('signIn.submit')}
          icon="pi pi-sign-in"
          loading={busy}
          className="auth-submit"
        />
        <p className="auth-switch">
          {t('signIn.noAccount')} <Link href={paths.signUpSelect}>{t('signIn.signUp')}</Link>
        </p>
      </form>
    </AuthFrame>
  );
}
