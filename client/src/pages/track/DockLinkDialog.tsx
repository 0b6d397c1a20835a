import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { formatLocal } from '../../shared/format.ts';
import { dockApi, type DockLinkCreated } from '../../shared/dock/dock.api.ts';

type Made = DockLinkCreated & { link: string; sentTo: string | null };

/**
 * The shipper's dock link for the pickup: the dock opens it (no sign-in), sees who should come and
 * enters the driver's release code. Made here, optionally e-mailed to the dock, copied, or ended.
 */
export function DockLinkDialog({ tourId, onClose }: { tourId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const [email, setEmail] = useState('');
  const [made, setMade] = useState<Made[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      const to = email.trim();
      const created = await dockApi.createLink(tourId, to || undefined);
      setMade((list) => [
        {
          ...created,
          link: new URL(created.url, window.location.origin).toString(),
          sentTo: to || null,
        },
        ...list,
      ]);
      setEmail('');
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (token: string) => {
    setError(null);
    try {
      await dockApi.revokeLink(tourId, token);
      setMade((list) => list.filter((entry) => entry.token !== token));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <Dialog
      header={t('dock.dialogTitle')}
      visible
      onHide={onClose}
      className="share-dialog"
      breakpoints={{ '640px': '95vw' }}
      style={{ width: '34rem' }}
    >
      <p className="muted share-intro">{t('dock.dialogIntro')}</p>
      <div className="share-create share-email">
        <label htmlFor="dock-email">{t('dock.email')}</label>
        <InputText
          id="dock-email"
          type="email"
          value={email}
          dir="ltr"
          autoComplete="email"
          onChange={(event) => setEmail(event.target.value)}
        />
        <Button
          type="button"
          label={t('dock.create')}
          icon="pi pi-link"
          loading={busy}
          onClick={() => void create()}
        />
      </div>
      {error && (
        <p className="p-error" role="alert">
          {error}
        </p>
      )}
      {made.length > 0 && (
        <ul className="share-links" aria-label={t('dock.links')}>
          {made.map((entry) => (
            <li key={entry.token}>
              {entry.sentTo && (
                <span className={entry.emailed ? 'muted' : 'p-error'}>
                  {entry.emailed
                    ? t('sharedTrack.emailed', { email: entry.sentTo })
                    : t('sharedTrack.notEmailed')}
                </span>
              )}
              <InputText
                value={entry.link}
                readOnly
                dir="ltr"
                aria-label={t('dock.link')}
                onFocus={(event) => event.currentTarget.select()}
              />
              <div className="share-link-actions">
                <span className="muted">
                  {t('sharedTrack.until', { time: formatLocal(entry.expiresAt, lng) })}
                </span>
                <a
                  className="p-button p-button-sm p-button-outlined"
                  href={entry.url}
                  target="_blank"
                  rel="noreferrer"
                >
                  {t('dock.open')}
                </a>
                <Button
                  type="button"
                  size="small"
                  severity="danger"
                  outlined
                  icon="pi pi-times"
                  label={t('sharedTrack.revoke')}
                  onClick={() => void revoke(entry.token)}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
