import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { Password } from 'primereact/password';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { ApiError, apiGet, apiPost, refreshOnce } from '../../api/http.ts';
import { paths } from '../../app/paths.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { preloadShell } from '../../app/shellPreload.ts';
import {
  type AuthUser,
  readTokens,
  type Session,
  signInWith,
  writeTokens,
} from '../../state/session.ts';
import { AuthFrame } from '../../shared/auth/AuthFrame.tsx';
import { TwoFactorEnrol } from '../../shared/twoFactor/TwoFactorEnrol.tsx';
import { useMessageText } from '../../components/messages.ts';

type Field = 'email' | 'password' | 'code';
type FieldErrors = Partial<Record<Field, string>>;

function serverFieldErrors(error: ApiError, translate: (message: string) => string): FieldErrors {
  const result: FieldErrors = {};
  for (const { path, message } of error.errors) {
    if (path === 'email' || path === 'password' || path === 'code')
      result[path] ??= translate(message);
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
  // The second step: the server asked for a code of the authenticator app (or a recovery code).
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState('');
  // Signed in, but sent to enrol in two-factor sign-in before anything else.
  const [enrolling, setEnrolling] = useState<Session | null>(null);
  const afterReset = titleKey === 'routes.signInSelect';

  /** Enrolled: a refreshed session (no longer marked to enrol) and its profile. */
  async function enrolled(session: Session) {
    await refreshOnce(session.accessToken);
    const tokens = readTokens();
    const user = await apiGet<AuthUser>('/profile');
    signInWith({
      ...session,
      accessToken: tokens?.accessToken ?? session.accessToken,
      refreshToken: tokens?.refreshToken ?? session.refreshToken,
      user,
    });
    navigate(paths.landing, { replace: true });
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing: FieldErrors = {};
    if (email.trim() === '') missing.email = t('signIn.emailRequired');
    if (password === '') missing.password = t('signIn.passwordRequired');
    if (needsCode && code.trim() === '') missing.code = t('twoFactor.codeRequired');
    setFieldErrors(missing);
    setFormError(null);
    if (Object.keys(missing).length > 0) return;

    setBusy(true);
    // The signed-in shell's code loads while the credentials are checked: the home page opens in it.
    preloadShell();
    try {
      const session = await apiPost<Session>(
        '/login',
        { email: email.trim(), password, ...(needsCode ? { code: code.trim() } : {}) },
        { auth: false },
      );
      if (session.user.twoFactor?.mustEnrol) {
        // Only the enrolment answers this session: keep its tokens, not the signed-in shell.
        writeTokens({ accessToken: session.accessToken, refreshToken: session.refreshToken });
        setEnrolling(session);
        return;
      }
      signInWith(session);
      // The guard takes it from the root: the remembered path, or the home page of the role.
      navigate(paths.landing, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'two_factor_required') {
        setNeedsCode(true);
        setFormError(null);
      } else if (error instanceof ApiError) {
        setFormError(messageText(error.message));
        setFieldErrors(serverFieldErrors(error, messageText));
      } else {
        setFormError(t('signIn.networkError'));
      }
    } finally {
      setBusy(false);
    }
  }

  if (enrolling)
    return (
      <AuthFrame
        title={t('twoFactor.enrolTitle')}
        subtitle={t('twoFactor.enrolRequired')}
        icon="pi-shield"
      >
        <TwoFactorEnrol
          onDone={() =>
            void enrolled(enrolling).catch(() => setFormError(t('signIn.networkError')))
          }
        />
        {formError && <Message severity="error" text={formError} className="form-message" />}
      </AuthFrame>
    );

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

        {needsCode && (
          <div className="form-field">
            <Message severity="info" text={t('twoFactor.codeAsked')} className="form-message" />
            <label htmlFor="signin-code">{t('twoFactor.signInCode')}</label>
            <InputText
              id="signin-code"
              name="code"
              inputMode="text"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              invalid={fieldErrors.code !== undefined}
              aria-describedby={fieldErrors.code ? 'signin-code-error' : undefined}
              autoFocus
            />
            {fieldErrors.code && (
              <small id="signin-code-error" className="p-error">
                {fieldErrors.code}
              </small>
            )}
          </div>
        )}

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
