import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { forgotPasswordBodySchema } from '../../../../domain/schemas/index.ts';
import { apiPost, messageOf } from '../../api/http.ts';
import { paths } from '../../app/paths.ts';
import { TextField } from '../../shared/forms/fields.tsx';
import { AuthFrame } from '../../shared/auth/AuthFrame.tsx';
import { useMessageText } from '../../components/messages.ts';

/** /forget-password: the e-mail address; the server answers the same whether or not it is known. */
export default function ForgetPasswordPage() {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = forgotPasswordBodySchema.safeParse({ email });
    setFormError(null);
    if (!parsed.success) {
      setError(messageText(parsed.error.issues[0]?.message ?? ''));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await apiPost('/users/forgot-password', parsed.data, { auth: false });
      setSentTo(parsed.data.email);
    } catch (failure) {
      setFormError(messageText(messageOf(failure)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthFrame title={t('routes.forgetPassword')} subtitle={t('auth.forgetSubtitle')} icon="pi-key">
      {sentTo ? (
        <div className="auth-form">
          <Message
            severity="success"
            text={t('auth.resetSentTo', { email: sentTo })}
            className="form-message"
          />
          <p className="auth-note">{t('auth.resetSentHint')}</p>
          <Link href="/reset-password" className="p-button p-component auth-submit">
            <span className="p-button-label">{t('auth.haveCode')}</span>
          </Link>
          <p className="auth-switch">
            <Link href={paths.signIn}>{t('auth.backToSignIn')}</Link>
          </p>
        </div>
      ) : (
        <form className="auth-form" onSubmit={submit} noValidate>
          {formError && <Message severity="error" text={formError} className="form-message" />}
          <TextField
            id="forget-email"
            type="email"
            label={t('auth.email')}
            value={email}
            onChange={setEmail}
            error={error ?? undefined}
            autoComplete="email"
            required
          />
          <Button
            type="submit"
            label={t('auth.sendReset')}
            icon="pi pi-send"
            loading={busy}
            className="auth-submit"
          />
          <p className="auth-switch">
            <Link href={paths.signIn}>{t('auth.backToSignIn')}</Link>
          </p>
        </form>
      )}
    </AuthFrame>
  );
}
