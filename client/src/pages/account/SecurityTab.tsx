import { useAtom } from 'jotai';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { Password } from 'primereact/password';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiDelete, apiGet } from '../../api/http.ts';
import { useMessageText } from '../../components/messages.ts';
import { TwoFactorEnrol } from '../../shared/twoFactor/TwoFactorEnrol.tsx';
import { notify } from '../../state/common.ts';
import { type AuthUser, authUserAtom } from '../../state/session.ts';

/** The Security tab: two-factor sign-in, turned on with an authenticator app or off with the password and a code. */
export function SecurityTab() {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [user, setUser] = useAtom(authUserAtom);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const enabled = user?.twoFactor?.enabled === true;

  const reload = async () => setUser(await apiGet<AuthUser>('/profile'));

  async function disable(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await apiDelete('/account/2fa', { password, code: code.trim() });
      setPassword('');
      setCode('');
      notify('success', t('twoFactor.disabled'));
      await reload();
    } catch (caught) {
      setError(caught instanceof ApiError ? messageText(caught.message) : t('signIn.networkError'));
    } finally {
      setBusy(false);
    }
  }

  if (!enabled)
    return (
      <section className="account-form" aria-labelledby="security-title">
        <h3 id="security-title">{t('twoFactor.title')}</h3>
        <TwoFactorEnrol onDone={() => void reload()} />
      </section>
    );

  return (
    <form className="account-form" onSubmit={disable} noValidate aria-labelledby="security-title">
      <h3 id="security-title">{t('twoFactor.title')}</h3>
      <Message severity="success" text={t('twoFactor.isOn')} className="form-message" />
      <p>{t('twoFactor.disableIntro')}</p>
      {error && <Message severity="error" text={error} className="form-message" />}
      <div className="form-field">
        <label htmlFor="two-factor-off-password">{t('twoFactor.password')}</label>
        <Password
          inputId="two-factor-off-password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          feedback={false}
          toggleMask
        />
      </div>
      <div className="form-field">
        <label htmlFor="two-factor-off-code">{t('twoFactor.signInCode')}</label>
        <InputText
          id="two-factor-off-code"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </div>
      <Button
        type="submit"
        severity="danger"
        icon="pi pi-lock-open"
        label={t('twoFactor.disable')}
        loading={busy}
      />
    </form>
  );
}
