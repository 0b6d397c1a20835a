import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { Password } from 'primereact/password';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { ApiError, apiPost } from '../../api/http.ts';
import { paths } from '../../app/paths.ts';
import { type Session, signInWith } from '../../state/session.ts';
import { useMessageText } from '../../components/messages.ts';

type Field = 'email' | 'password';
type FieldErrors = Partial<Record<Field, string>>;

function serverFieldErrors(error: ApiError): FieldErrors {
  const result: FieldErrors = {};
  for (const { path, message } of error.errors) {
    if (path === 'email' || path === 'password') result[path] ??= message;
  }
  return result;
}

export default function SignInPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const messageText = useMessageText();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing: FieldErrors = {};
    if (email.trim() === '') missing.email = t('signIn.emailRequired');
    if (password === '') missing.password = t('signIn.passwordRequired');
    setFieldErrors(missing);
    setFormError(null);
    if (Object.keys(missing).length > 0) return;

    setBusy(true);
    try {
      signInWith(await apiPost<Session>('/login', { email: email.trim(), password }, { auth: false }));
      // The guard takes it from the root: the remembered path, or the home page of the role.
      navigate(paths.landing, { replace: true });
    } catch (error) {
      if (error instanceof ApiError) {
        setFormError(messageText(error.message));
        setFieldErrors(serverFieldErrors(error));
      } else {
        setFormError(t('signIn.networkError'));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="page page-signin">
      <form className="form-card" onSubmit={submit} noValidate>
        <h1>{t('signIn.title')}</h1>
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
          <label htmlFor="signin-password">{t('signIn.password')}</label>
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

        <div className="form-actions signin-actions">
          <Link href={paths.forgetPassword}>{t('signIn.forgotPassword')}</Link>
          <Button type="submit" label={t('signIn.submit')} icon="pi pi-sign-in" loading={busy} />
        </div>
        <p className="signin-signup">
          {t('signIn.noAccount')} <Link href={paths.signUpSelect}>{t('signIn.signUp')}</Link>
        </p>
      </form>
    </section>
  );
}
