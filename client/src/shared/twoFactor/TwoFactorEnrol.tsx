import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiPost } from '../../api/http.ts';
import { useMessageText } from '../../components/messages.ts';

type Setup = { secret: string; otpauthUrl: string; qrSvg: string };

/** The recovery codes as a text file, one a line. */
function downloadCodes(codes: string[]) {
  const url = URL.createObjectURL(
    new Blob([`${codes.join('\n')}\n`], { type: 'text/plain;charset=utf-8' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = 'freight-marketplace-recovery-codes.txt';
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * Two-factor enrolment: a new secret as a QR code and in text, the app's first code to turn it on,
 * then the ten recovery codes, shown this once (copy, download), and `onDone`.
 */
export function TwoFactorEnrol({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);

  const failed = (caught: unknown) =>
    setError(caught instanceof ApiError ? messageText(caught.message) : t('signIn.networkError'));

  async function start() {
    setBusy(true);
    setError(null);
    try {
      setSetup(await apiPost<Setup>('/account/2fa/setup', {}));
    } catch (caught) {
      failed(caught);
    } finally {
      setBusy(false);
    }
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (code.trim() === '') return setError(t('twoFactor.codeRequired'));
    setBusy(true);
    setError(null);
    try {
      const answer = await apiPost<{ recoveryCodes: string[] }>('/account/2fa/confirm', {
        code: code.trim(),
      });
      setCodes(answer.recoveryCodes);
    } catch (caught) {
      failed(caught);
    } finally {
      setBusy(false);
    }
  }

  if (codes)
    return (
      <div className="two-factor">
        <Message severity="success" text={t('twoFactor.enabled')} className="form-message" />
        <p>{t('twoFactor.recoveryIntro')}</p>
        <ul className="two-factor-codes" aria-label={t('twoFactor.recoveryCodes')}>
          {codes.map((recovery) => (
            <li key={recovery}>
              <code>{recovery}</code>
            </li>
          ))}
        </ul>
        <div className="form-actions">
          <Button
            type="button"
            icon="pi pi-copy"
            label={copied ? t('twoFactor.copied') : t('twoFactor.copy')}
            outlined
            onClick={() =>
              void navigator.clipboard?.writeText(codes.join('\n')).then(() => setCopied(true))
            }
          />
          <Button
            type="button"
            icon="pi pi-download"
            label={t('twoFactor.download')}
            outlined
            onClick={() => downloadCodes(codes)}
          />
          <Button type="button" label={t('twoFactor.done')} onClick={onDone} />
        </div>
      </div>
    );

  if (!setup)
    return (
      <div className="two-factor">
        <p>{t('twoFactor.intro')}</p>
        {error && <Message severity="error" text={error} className="form-message" />}
        <Button
          type="button"
          icon="pi pi-shield"
          label={t('twoFactor.start')}
          loading={busy}
          onClick={() => void start()}
        />
      </div>
    );

  return (
    <form className="two-factor" onSubmit={confirm} noValidate>
      <p>{t('twoFactor.scan')}</p>
      <img
        className="two-factor-qr"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
        alt={t('twoFactor.qrAlt')}
        width={200}
        height={200}
      />
      <p>
        {t('twoFactor.secretLabel')} <code className="two-factor-secret">{setup.secret}</code>
      </p>
      {error && <Message severity="error" text={error} className="form-message" />}
      <div className="form-field">
        <label htmlFor="two-factor-enrol-code">{t('twoFactor.code')}</label>
        <InputText
          id="two-factor-enrol-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </div>
      <Button type="submit" label={t('twoFactor.confirm')} loading={busy} />
    </form>
  );
}
