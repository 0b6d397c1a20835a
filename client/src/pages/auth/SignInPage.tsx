import { useSetAtom } from 'jotai';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { Password } from 'primereact/password';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { ApiError, apiPost } from '../../api/http.ts';
import { paths } from '../../app/paths.ts';
import { type Session, sessionAtom } from '../../state/session.ts';

type Field = 'email' | 'password';
type FieldErrors = Partial<Record<Field, string>>;

function serverFieldErrors(error: ApiError): FieldErrors {
  const result: FieldErrors = {};
  for (const { path, message } of error.errors) {
    if (path === 'email' || path === 'password') result[path] ??= message;
  }
  return result;
}

export function SignInPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const setSession = useSetAtom(sessionAtom);
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
      setSession(await apiPost<Session>('/login', { email: email.trim(), password }));
      navigate(paths.home, { replace: true });
    } catch (error) {
      if (error instanceof ApiError) {
        setFormError(error.message);
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

        <div className="form-actions">
          <Button type="submit" label={t('signIn.submit')} icon="pi pi-sign-in" loading={busy} />
        </div>
      </form>
    </section>
  );
}
