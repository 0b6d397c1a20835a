import { useAtomValue } from 'jotai';
import { Button } from 'primereact/button';
import { ProgressSpinner } from 'primereact/progressspinner';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiGet } from '../api/http.ts';
import { preloadShell } from './shellPreload.ts';
import {
  type AuthUser,
  appStore,
  authStatusAtom,
  authUserAtom,
  rememberedUser,
  rememberUser,
  signOutLocally,
} from '../state/session.ts';

/** A full-page spinner: shown while the stored token is checked and while a page's code loads. */
export function FullPageSpinner({ label }: { label: string }) {
  return (
    <div className="full-page-spinner" role="status" aria-live="polite">
      <ProgressSpinner
        style={{ width: '3rem', height: '3rem' }}
        strokeWidth="4"
        aria-hidden="true"
      />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}

/** At startup a stored token is checked against GET /api/profile; the spinner shows meanwhile. */
export function AuthBootstrap({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const status = useAtomValue(authStatusAtom);
  const [unreachable, setUnreachable] = useState(false);

  const check = useCallback(() => {
    setUnreachable(false);
    apiGet<AuthUser>('/profile')
      .then((user) => {
        rememberUser(user);
        appStore.set(authUserAtom, user);
        appStore.set(authStatusAtom, 'signedIn');
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
          signOutLocally();
          return;
        }
        // Offline (the driver's installed app on the road: no network, or no way to the server from
        // a page the service worker opened): the page opens with the user last read; its API calls
        // fail until the network is back, and the positions wait in IndexedDB.
        const offline =
          !navigator.onLine ||
          (!(error instanceof ApiError) && Boolean(navigator.serviceWorker?.controller));
        const kept = offline ? rememberedUser() : null;
        if (kept) {
          appStore.set(authUserAtom, kept);
          appStore.set(authStatusAtom, 'signedIn');
        } else setUnreachable(true);
      });
  }, []);

  useEffect(() => {
    if (status !== 'checking') return;
    check();
    // A stored token: most likely a signed-in page follows, whose shell loads meanwhile.
    preloadShell();
  }, [status, check]);

  if (status !== 'checking') return children;
  if (unreachable) {
    return (
      <div className="full-page-spinner">
        <i className="pi pi-wifi page-error-icon" aria-hidden="true" />
        <p>{t('app.unreachable')}</p>
        <Button label={t('common.retry')} icon="pi pi-refresh" onClick={check} />
      </div>
    );
  }
  return <FullPageSpinner label={t('app.checkingSession')} />;
}
