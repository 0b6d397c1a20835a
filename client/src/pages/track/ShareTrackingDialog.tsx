import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { atom, useAtom, useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { authUserAtom } from '../../state/session.ts';
import { formatLocal } from '../../shared/format.ts';
import { SHARE_HOURS, trackingLinkApi, type ShareCreated } from './trackingLink.api.ts';

/** A link made in this browser tab: the token is shown only once, so this is where it can be copied again or ended. */
type Made = ShareCreated & { link: string; sentTo: string | null };

/** The links made per user and tour while the app is open, newest first: closing and reopening the dialog keeps them. */
const madeAtom = atom<Record<string, Made[]>>({});

/**
 * Share the tracking with someone outside the shipment (the receiver): choose how long the link
 * lasts, make it, copy it; every link made here can be ended at once.
 */
export function ShareTrackingDialog({ tourId, onClose }: { tourId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const [hours, setHours] = useState<number>(24);
  const [email, setEmail] = useState('');
  const [madeByTour, setMadeByTour] = useAtom(madeAtom);
  // Per user and tour: another user signing in on this tab does not see them.
  const key = `${useAtomValue(authUserAtom)?.id ?? ''}:${tourId}`;
  // Expired links drop out of the list.
  const made = (madeByTour[key] ?? []).filter((entry) => Date.parse(entry.expiresAt) > Date.now());
  const setMade = (update: (list: Made[]) => Made[]) =>
    setMadeByTour((all) => ({ ...all, [key]: update(all[key] ?? []) }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);

  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      const to = email.trim();
      const created = await trackingLinkApi.share(tourId, hours, to || undefined);
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
      await trackingLinkApi.revoke(tourId, token);
      setMade((list) => list.filter((entry) => entry.token !== token));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  const copy = (link: string) => {
    void navigator.clipboard?.writeText(link).then(
      () => setCopied(link),
      () => undefined,
    );
  };

  const options = SHARE_HOURS.map((value) => ({
    value,
    label: t(`sharedTrack.hours.${value}` as 'sharedTrack.hours.24'),
  }));

  return (
    <Dialog
      header={t('sharedTrack.dialogTitle')}
      visible
      onHide={onClose}
      className="share-dialog"
      breakpoints={{ '640px': '95vw' }}
      style={{ width: '34rem' }}
    >
      <p className="muted share-intro">{t('sharedTrack.intro')}</p>
      <div className="share-create">
        <label htmlFor="share-hours">{t('sharedTrack.expiresIn')}</label>
        <Dropdown
          inputId="share-hours"
          value={hours}
          options={options}
          onChange={(event) => setHours(event.value as number)}
        />
      </div>
      <div className="share-create share-email">
        <label htmlFor="share-email">{t('sharedTrack.email')}</label>
        <InputText
          id="share-email"
          type="email"
          value={email}
          dir="ltr"
          autoComplete="email"
          onChange={(event) => setEmail(event.target.value)}
        />
        <Button
          type="button"
          label={t('sharedTrack.create')}
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
        <ul className="share-links" aria-label={t('sharedTrack.links')}>
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
                aria-label={t('sharedTrack.link')}
                onFocus={(event) => event.currentTarget.select()}
              />
              <div className="share-link-actions">
                <span className="muted">
                  {t('sharedTrack.until', { time: formatLocal(entry.expiresAt, lng) })}
                </span>
                <Button
                  type="button"
                  size="small"
                  outlined
                  icon={copied === entry.link ? 'pi pi-check' : 'pi pi-copy'}
                  label={copied === entry.link ? t('sharedTrack.copied') : t('sharedTrack.copy')}
                  onClick={() => copy(entry.link)}
                />
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
