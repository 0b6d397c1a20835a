import { useAtomValue } from 'jotai';
import { Message } from 'primereact/message';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiGet, refreshOnce } from '../api/http.ts';
import { TwoFactorEnrol } from '../shared/twoFactor/TwoFactorEnrol.tsx';
import { appStore, type AuthUser, authUserAtom } from '../state/session.ts';

/**
 * In place of every page while the user must enrol in two-factor sign-in (a Superadmin, or a member
 * of an organization that requires it): the server answers everything else 403
 * two_factor_enrolment_required. Once enrolled, a refreshed session and its profile let the pages in.
 */
export function TwoFactorRequired({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  const [error, setError] = useState<string | null>(null);
  if (!user?.twoFactor?.mustEnrol) return children;

  async function enrolled() {
    await refreshOnce();
    appStore.set(authUserAtom, await apiGet<AuthUser>('/profile'));
  }

  return (
    <section className="two-factor-required" aria-labelledby="two-factor-required-title">
      <h1 id="two-factor-required-title">{t('twoFactor.enrolTitle')}</h1>
      <Message severity="warn" text={t('twoFactor.enrolRequired')} className="form-message" />
      {error && <Message severity="error" text={error} className="form-message" />}
      <TwoFactorEnrol
        onDone={() => void enrolled().catch(() => setError(t('signIn.networkError')))}
      />
    </section>
  );
}
