import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { Skeleton } from 'primereact/skeleton';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import { formatLocal } from '../../shared/format.ts';
import {
  POLL_MS,
  positionText,
  readModelsApi,
  usePolling,
  type ParkedEvent,
} from './projections.api.ts';

/** The events one read model set aside, each with its error and a Retry. */
export function ParkedEvents({ name, onChanged }: { name: string; onChanged: () => void }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const [events, setEvents] = useState<ParkedEvent[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [failures, setFailures] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);

  usePolling(
    useCallback(
      async (signal: AbortSignal) => {
        try {
          const list = await readModelsApi.parked(name, signal);
          setEvents(Array.isArray(list) ? list : []);
          setLoadError(null);
        } catch (failure) {
          if (!signal.aborted) setLoadError(messageOf(failure));
        }
      },
      [name],
    ),
    POLL_MS,
  );

  const retry = async (event: ParkedEvent) => {
    setBusy(event.eventId);
    try {
      await readModelsApi.retry(name, event.eventId);
      setEvents((list) => (list ?? []).filter((entry) => entry.eventId !== event.eventId));
      setFailures(({ [event.eventId]: _gone, ...rest }) => rest);
      notify(
        'success',
        t('readModels.parked.applied', { type: event.type, position: event.position }),
      );
      onChanged();
    } catch (failure) {
      setFailures((current) => ({ ...current, [event.eventId]: messageOf(failure) }));
    } finally {
      setBusy(null);
    }
  };

  const title = t('readModels.parked.title', { name });
  return (
    <section className="parked-events" aria-label={title}>
      <h2 className="parked-title">{title}</h2>
      {loadError && <Message severity="error" text={loadError} className="form-message" />}
      {events === null && !loadError && <Skeleton height="3rem" />}
      {events !== null && events.length === 0 && (
        <p className="table-empty">{t('readModels.parked.empty')}</p>
      )}
      {events !== null && events.length > 0 && (
        <ul className="parked-list">
          {events.map((event) => (
            <li key={event.eventId} className="parked-event" data-testid="parked-event">
              <dl className="parked-facts">
                <div>
                  <dt>{t('readModels.parked.type')}</dt>
                  <dd dir="ltr">{event.type}</dd>
                </div>
                <div>
                  <dt>{t('readModels.parked.stream')}</dt>
                  <dd dir="ltr" className="parked-stream">
                    {event.streamId}
                  </dd>
                </div>
                <div>
                  <dt>{t('readModels.parked.position')}</dt>
                  <dd className="tabular">{positionText(event.position)}</dd>
                </div>
                <div>
                  <dt>{t('readModels.parked.at')}</dt>
                  <dd className="tabular">
                    <time dateTime={event.at}>{formatLocal(event.at, lng)}</time>
                  </dd>
                </div>
              </dl>
              <div className="parked-error">
                <span className="parked-error-label">{t('readModels.parked.error')}</span>
                <pre dir="ltr">{event.error}</pre>
              </div>
              {failures[event.eventId] && (
                <Message
                  severity="error"
                  role="alert"
                  className="form-message"
                  text={t('readModels.parked.stillFails', { error: failures[event.eventId] })}
                />
              )}
              <div className="parked-actions">
                <Button
                  type="button"
                  icon="pi pi-replay"
                  label={t('readModels.parked.retry')}
                  size="small"
                  outlined
                  aria-label={t('readModels.parked.retryLabel', {
                    type: event.type,
                    position: positionText(event.position),
                  })}
                  loading={busy === event.eventId}
                  disabled={busy !== null}
                  onClick={() => void retry(event)}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
