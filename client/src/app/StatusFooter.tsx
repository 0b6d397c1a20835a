import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../api/http.ts';

/** GET /api/health (docs/api.md). `eventStore` is read as a status string or an object carrying one. */
interface Health {
  status?: string;
  eventStore?: string | { status?: string };
}

type EventStoreState = 'checking' | 'ok' | 'unavailable';

const refreshEveryMs = 30_000;

function eventStoreState(health: Health | undefined): EventStoreState {
  const value = typeof health?.eventStore === 'object' ? health.eventStore?.status : (health?.eventStore ?? health?.status);
  return value === 'ok' || value === 'up' ? 'ok' : 'unavailable';
}

export function StatusFooter() {
  const { t } = useTranslation();
  const [state, setState] = useState<EventStoreState>('checking');

  useEffect(() => {
    const controller = new AbortController();
    const check = () => {
      apiGet<Health>('/health', { signal: controller.signal, auth: false })
        .then((health) => setState(eventStoreState(health)))
        .catch(() => {
          if (!controller.signal.aborted) setState('unavailable');
        });
    };
    check();
    const timer = setInterval(check, refreshEveryMs);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, []);

  const icon = { checking: 'pi-spin pi-spinner', ok: 'pi-check-circle', unavailable: 'pi-exclamation-triangle' }[state];
  return (
    <span role="status" className={`health health-${state}`}>
      <i className={`pi ${icon}`} aria-hidden="true" />
      {t('health.eventStore', { status: t(`health.${state}`) })}
    </span>
  );
}
