import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Health } from '../../../domain/contracts/platform.contract.ts';
import { apiGet } from '../api/http.ts';

type EventStoreState = 'checking' | 'ok' | 'unavailable';

const refreshEveryMs = 30_000;

const eventStoreState = (health: Health | undefined): EventStoreState =>
  health?.eventStore.status === 'ok' ? 'ok' : 'unavailable';

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

  const icon = {
    checking: 'pi-spin pi-spinner',
    ok: 'pi-check-circle',
    unavailable: 'pi-exclamation-triangle',
  }[state];
  return (
    <span role="status" className={`health health-${state}`}>
      <i className={`pi ${icon}`} aria-hidden="true" />
      {t('health.eventStore', { status: t(`health.${state}`) })}
    </span>
  );
}
