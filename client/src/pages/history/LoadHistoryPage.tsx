import { Button } from 'primereact/button';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { notify } from '../../state/common.ts';
import { formatLocal } from '../../shared/format.ts';
import { type HistoryAnswer, historyApi } from './history.api.ts';
import { streamKind, summarize } from './historySummary.ts';
import { HistorySnapshot } from './HistorySnapshot.tsx';
import type { PodFile } from '../../shared/pod/pod.api.ts';
import { PodFiles } from '../../shared/pod/PodView.tsx';
import '../../shared/tours/tours.css';
import './history.css';

/** The slider waits this long after the last move before asking the server. */
const SLIDE_DEBOUNCE_MS = 250;

const kindIcons = {
  load: 'pi-box',
  offer: 'pi-tag',
  tour: 'pi-truck',
  chat: 'pi-comments',
  contract: 'pi-file',
} as const;

/** /loads/history/<id>: every event of a load with who and when, a time slider replaying it, and the CSV record. */
export default function LoadHistoryPage({ titleKey, params }: PageProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const loadId = params.id ?? '';
  const [history, setHistory] = useState<HistoryAnswer | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [index, setIndex] = useState<number | null>(null);
  const [snapshot, setSnapshot] = useState<HistoryAnswer | null>(null);
  const [snapshotLoading, setSnapshotLoading] = useState(false);
  const [downloading, setDownloading] = useState(false);

  const load = useCallback(async () => {
    try {
      const answer = await historyApi.history(loadId);
      setHistory(answer);
      setIndex(answer.events.length - 1);
      setFailed(null);
    } catch (error) {
      setFailed(messageOf(error));
    }
  }, [loadId]);

  useEffect(() => {
    void load();
  }, [load]);

  const events = useMemo(() => history?.events ?? [], [history]);
  const selected = index !== null && index >= 0 ? events[index] : undefined;
  const at = selected?.at ?? null;

  // The load, offers and tour as they stood at the chosen event.
  useEffect(() => {
    if (!at) return;
    const controller = new AbortController();
    setSnapshotLoading(true);
    const timer = setTimeout(() => {
      historyApi
        .history(loadId, at, controller.signal)
        .then((answer) => setSnapshot(answer))
        .catch((error: unknown) => {
          if (!controller.signal.aborted) notify('error', messageOf(error));
        })
        .finally(() => {
          if (!controller.signal.aborted) setSnapshotLoading(false);
        });
    }, SLIDE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [loadId, at]);

  const download = async () => {
    setDownloading(true);
    try {
      const blob = await historyApi.csv(loadId);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `history-${history?.guid ?? loadId}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1_000);
    } catch (error) {
      notify('error', messageOf(error));
    } finally {
      setDownloading(false);
    }
  };

  // Each organization's name as of the chosen event: entries carry the names as they were then.
  const organizations = useMemo(() => {
    const names = new Map<string, string>();
    for (const event of events.slice(0, (index ?? events.length - 1) + 1))
      if (event.organization?.name) names.set(event.organization.id, event.organization.name);
    return names;
  }, [events, index]);

  return (
    <section className="page page-history">
      <header className="page-header">
        <h1>
          {t(titleKey)}
          {history ? ` · ${history.guid}` : ''}
        </h1>
        <Button
          type="button"
          icon="pi pi-download"
          label={t('history.download')}
          outlined
          loading={downloading}
          disabled={!history}
          onClick={() => void download()}
        />
      </header>

      {failed && !history && (
        <div className="card" role="alert">
          <p>{failed}</p>
          <Button
            type="button"
            label={t('common.retry')}
            icon="pi pi-refresh"
            onClick={() => void load()}
          />
        </div>
      )}
      {!history && !failed && (
        <div className="card history-skeleton" aria-busy="true">
          <div className="skeleton-line is-wide" />
          <div className="skeleton-block" />
        </div>
      )}

      {history && events.length === 0 && <p className="card muted">{t('history.noEvents')}</p>}

      {history && events.length > 0 && index !== null && (
        <>
          <section className="card history-slider" aria-labelledby={`${id}-slider-title`}>
            <h2 id={`${id}-slider-title`}>{t('history.slider.title')}</h2>
            <label htmlFor={`${id}-slider`} className="visually-hidden">
              {t('history.slider.label')}
            </label>
            <input
              id={`${id}-slider`}
              type="range"
              min={0}
              max={events.length - 1}
              step={1}
              value={index}
              aria-valuetext={
                selected
                  ? `${formatLocal(selected.at, lng)}: ${summarize(t, selected, lng)}`
                  : undefined
              }
              onChange={(event) => setIndex(Number(event.target.value))}
            />
            <div className="history-slider-scale tabular muted" aria-hidden="true">
              <span>{formatLocal(events[0].at, lng)}</span>
              <span>{formatLocal(events.at(-1)!.at, lng)}</span>
            </div>
            {selected && (
              <p className="history-slider-now" aria-live="polite">
                <span className="tabular">
                  {t('history.slider.step', { step: index + 1, total: events.length })}
                </span>
                {' · '}
                <time className="tabular" dateTime={selected.at}>
                  {formatLocal(selected.at, lng)}
                </time>
                {' · '}
                <strong>{summarize(t, selected, lng)}</strong>
              </p>
            )}
          </section>

          <div className="history-layout">
            <HistorySnapshot
              answer={snapshot?.at === at ? snapshot : null}
              loading={snapshotLoading}
              organizations={organizations}
            />

            <section className="card" aria-labelledby={`${id}-events-title`}>
              <h2 id={`${id}-events-title`}>{t('history.events')}</h2>
              <ol className="history-events">
                {events.map((event, position) => {
                  const kind = streamKind(event.stream);
                  return (
                    <li
                      key={event.position}
                      className={`history-event kind-${kind}${position > index ? ' is-future' : ''}${position === index ? ' is-selected' : ''}`}
                    >
                      <button
                        type="button"
                        className="history-event-button"
                        onClick={() => setIndex(position)}
                        aria-current={position === index ? 'step' : undefined}
                      >
                        <span className="history-event-icon" aria-hidden="true">
                          <i className={`pi ${kindIcons[kind]}`} />
                        </span>
                        <span className="history-event-body">
                          <span className="history-event-summary">{summarize(t, event, lng)}</span>
                          <span className="muted">
                            <time className="tabular" dateTime={event.at}>
                              {formatLocal(event.at, lng)}
                            </time>
                            {' · '}
                            {event.user?.name ?? t('history.system')}
                            {event.organization?.name ? ` (${event.organization.name})` : ''}
                          </span>
                        </span>
                        <span className="history-event-kind">{t(`history.kinds.${kind}`)}</span>
                      </button>
                      {event.type === 'ProofOfDeliveryRecorded' &&
                        Array.isArray(event.data.files) && (
                          <div className="history-pod">
                            <PodFiles files={event.data.files as PodFile[]} />
                          </div>
                        )}
                    </li>
                  );
                })}
              </ol>
            </section>
          </div>
        </>
      )}
    </section>
  );
}
