import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http.ts';
import { dockApi, type ReleaseCode } from '../../shared/dock/dock.api.ts';

/** While the code does not show (more than an hour before the pickup), ask again this often. */
const CLOSED_RETRY_MS = 60_000;
const PERIOD_SECONDS = 30;

/**
 * The driver's release code for the pickup dock: six digits, big, with the seconds until the next
 * one. Shown from an hour before the pickup appointment until the truck leaves the pickup; nothing
 * otherwise. The dock types it on its dock link page.
 */
export function ReleaseCodeCard({ tourId }: { tourId: string }) {
  const { t } = useTranslation();
  const [code, setCode] = useState<ReleaseCode | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    let next: ReturnType<typeof setTimeout> | null = null;
    dockApi
      .releaseCode(tourId)
      .then((answer) => {
        if (!live) return;
        setCode(answer);
        // The next code comes when this one ends.
        next = setTimeout(
          () => setRound((count) => count + 1),
          Math.max(250, Date.parse(answer.validUntil) - Date.now() + 50),
        );
      })
      .catch((error: unknown) => {
        if (!live) return;
        setCode(null);
        if (error instanceof ApiError && error.status < 500 && error.status !== 409) return;
        next = setTimeout(() => setRound((count) => count + 1), CLOSED_RETRY_MS);
      })
      .finally(() => {
        if (live && next === null)
          next = setTimeout(() => setRound((count) => count + 1), CLOSED_RETRY_MS);
      });
    return () => {
      live = false;
      if (next) clearTimeout(next);
    };
  }, [tourId, round]);

  useEffect(() => {
    if (!code) return undefined;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, [code]);

  if (!code) return null;
  const seconds = Math.max(0, Math.ceil((Date.parse(code.validUntil) - now) / 1000));
  return (
    <section className="card driver-card release-code-card" aria-labelledby="release-code-title">
      <h2 id="release-code-title">{t('dock.releaseCode')}</h2>
      <p className="muted">{t('dock.releaseCodeHelp')}</p>
      <p className="release-code" dir="ltr" aria-live="polite" data-testid="release-code">
        {code.code}
      </p>
      <div className="release-code-bar" aria-hidden="true">
        <span style={{ width: `${(seconds / PERIOD_SECONDS) * 100}%` }} />
      </div>
      <p className="muted release-countdown">{t('dock.nextCodeIn', { count: seconds })}</p>
    </section>
  );
}
