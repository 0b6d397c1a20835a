import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { formatZoned } from '../../shared/format.ts';
import { dockApi, type DockView } from '../../shared/dock/dock.api.ts';
import './dock.css';

type Reason = DockView['reasons'][number];

/**
 * /dock/:token (public, bare layout, phone first): the pickup dock's page behind the shipper's dock
 * link. It shows who should come (carrier, the driver's first name, tractor and trailer, how far the
 * truck's ELD puts it) and the pickup window; the dock types the driver's 6-digit release code and,
 * if it likes, the tractor number it sees; the answer is Released (green) or Held with the reasons.
 */
export default function DockPage({ params }: PageProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const token = params.token ?? '';
  const [view, setView] = useState<DockView | null>(null);
  const [ended, setEnded] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [tractor, setTractor] = useState('');
  const [busy, setBusy] = useState(false);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ state: 'released' | 'held'; reasons: Reason[] } | null>(
    null,
  );

  const load = useCallback(async () => {
    try {
      const answer = await dockApi.view(token);
      setView(answer);
      setFailed(null);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 400))
        setEnded(true);
      else setFailed(messageOf(error));
    }
  }, [token]);

  useEffect(() => {
    void load();
  }, [load]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      setCodeError(t('dock.codeRequired'));
      return;
    }
    setCodeError(null);
    setBusy(true);
    try {
      const answer = await dockApi.release(token, code.trim(), tractor.trim());
      setOutcome(
        answer.state === 'released'
          ? { state: 'released', reasons: [] }
          : { state: 'held', reasons: answer.reasons },
      );
      setCode('');
      await load();
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) setEnded(true);
      else setFailed(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  if (ended) {
    return (
      <section className="page page-dock">
        <div className="card dock-ended" role="status">
          <i className="pi pi-link" aria-hidden="true" />
          <h1>{t('dock.endedTitle')}</h1>
          <p>{t('dock.ended')}</p>
        </div>
      </section>
    );
  }

  const state = outcome?.state ?? (view?.state === 'waiting' ? null : view?.state) ?? null;
  const reasons = outcome?.reasons ?? view?.reasons ?? [];
  const zone = view?.pickupWindow.timezone ?? 'UTC';
  const dash = '–';

  return (
    <section className="page page-dock">
      <header className="dock-header">
        <h1>
          {t('dock.title')}
          {view ? (
            <>
              {' '}
              · <bdi>{view.loadGuid}</bdi>
            </>
          ) : null}
        </h1>
        {view && (
          <p className="muted">
            <bdi>
              {[view.pickup.name, view.pickup.city, view.pickup.state].filter(Boolean).join(', ')}
            </bdi>
          </p>
        )}
      </header>

      {failed && (
        <div className="card dock-error" role="alert">
          <p>{failed}</p>
          <Button
            type="button"
            label={t('common.retry')}
            icon="pi pi-refresh"
            onClick={() => void load()}
          />
        </div>
      )}

      <section className="card dock-facts" aria-labelledby="dock-expected">
        <h2 id="dock-expected">{t('dock.expected')}</h2>
        {view ? (
          <dl>
            <div>
              <dt>{t('dock.carrier')}</dt>
              <dd>
                <bdi>{view.carrier || dash}</bdi>
              </dd>
            </div>
            <div>
              <dt>{t('dock.driver')}</dt>
              <dd>
                <bdi>{view.driverFirstName ?? dash}</bdi>
              </dd>
            </div>
            <div>
              <dt>{t('dock.tractor')}</dt>
              <dd className="dock-number" dir="ltr">
                {view.tractorNumber ?? t('dock.notGiven')}
              </dd>
            </div>
            <div>
              <dt>{t('dock.trailer')}</dt>
              <dd className="dock-number" dir="ltr">
                {view.trailerNumber ?? t('dock.notGiven')}
              </dd>
            </div>
            <div>
              <dt>{t('dock.eldDistance')}</dt>
              <dd>
                {view.eldDistanceMiles === null
                  ? t('dock.noEld')
                  : t('dock.miles', {
                      miles: new Intl.NumberFormat(lng, { maximumFractionDigits: 1 }).format(
                        view.eldDistanceMiles,
                      ),
                    })}
              </dd>
            </div>
            <div>
              <dt>{t('dock.window')}</dt>
              <dd>
                {formatZoned(view.pickupWindow.start, zone, lng)}
                {view.pickupWindow.end !== view.pickupWindow.start && (
                  <> – {formatZoned(view.pickupWindow.end, zone, lng)}</>
                )}
              </dd>
            </div>
          </dl>
        ) : (
          <div className="skeleton-block" />
        )}
      </section>

      {state && (
        <div className={`card dock-outcome is-${state}`} role="status" aria-live="polite">
          <i
            className={`pi ${state === 'released' ? 'pi-check-circle' : 'pi-ban'}`}
            aria-hidden="true"
          />
          <div>
            <h2>{state === 'released' ? t('dock.released') : t('dock.held')}</h2>
            <p>{state === 'released' ? t('dock.releasedText') : t('dock.heldText')}</p>
            {state === 'held' && reasons.length > 0 && (
              <ul className="dock-reasons">
                {reasons.map((reason) => (
                  <li key={reason.code}>{t(`dock.reasons.${reason.code}`)}</li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}

      <form className="card dock-form" onSubmit={(event) => void submit(event)} noValidate>
        <h2>{t('dock.enterTitle')}</h2>
        <label htmlFor="dock-code">{t('dock.code')}</label>
        <InputText
          id="dock-code"
          className="dock-code-input"
          value={code}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          dir="ltr"
          aria-invalid={codeError ? true : undefined}
          aria-describedby={codeError ? 'dock-code-error' : undefined}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
        />
        {codeError && (
          <small id="dock-code-error" className="p-error" role="alert">
            {codeError}
          </small>
        )}
        <label htmlFor="dock-tractor">{t('dock.tractorSeen')}</label>
        <InputText
          id="dock-tractor"
          value={tractor}
          maxLength={20}
          dir="ltr"
          autoComplete="off"
          onChange={(event) => setTractor(event.target.value)}
        />
        <Button
          type="submit"
          className="dock-submit"
          label={t('dock.check')}
          icon="pi pi-shield"
          loading={busy}
          disabled={!view || view.triesLeft === 0}
        />
        {view && (
          <p className="muted dock-tries">{t('dock.triesLeft', { count: view.triesLeft })}</p>
        )}
      </form>
    </section>
  );
}
