import { useEffect, useRef } from 'react';
import type {
  ParkedEvent,
  ReactorLag,
  ReadModel,
  RebuildAnswer,
  RetryAnswer,
} from '../../../../domain/contracts/projections.contract.ts';
import { apiGet, apiPost } from '../../api/http.ts';

export type {
  ParkedEvent,
  ReactorLag,
  ReadModel,
  ReadModelStatus,
} from '../../../../domain/contracts/projections.contract.ts';

/** A log position as a caller may hold it: the server's pair ('transactionId', 'globalPosition'), or its text 'transactionId:globalPosition'. */
export type LogPositionValue =
  | string
  | number
  | { transactionId?: string | number; globalPosition?: string | number }
  | null;

/** While the page is open (and the tab visible) the read models are asked again this often. */
export const POLL_MS = 2_000;

const base = (name: string) => `/admin/projections/${encodeURIComponent(name)}`;

export const readModelsApi = {
  list: (signal?: AbortSignal) => apiGet<ReadModel[]>('/admin/projections', { signal }),
  /** The reactors on the log, shown beside the read models. */
  reactors: (signal?: AbortSignal) => apiGet<ReactorLag[]>('/admin/reactors', { signal }),
  parked: (name: string, signal?: AbortSignal) =>
    apiGet<ParkedEvent[]>(`${base(name)}/parked`, { signal }),
  /** 200 when the event now applies; a 409 ApiError carrying the error when it still fails. */
  retry: (name: string, eventId: string) =>
    apiPost<RetryAnswer>(`${base(name)}/parked/${encodeURIComponent(eventId)}/retry`),
  /** 202: the read model is rebuilt beside the live one and swapped in once caught up. */
  rebuild: (name: string) => apiPost<RebuildAnswer>(`${base(name)}/rebuild`),
};

/** The global position of a log position, for people: '1234'. */
export function positionText(position: LogPositionValue | undefined): string {
  if (position === null || position === undefined) return '–';
  if (typeof position === 'object')
    return String(position.globalPosition ?? position.transactionId ?? '–');
  const text = String(position);
  return text.includes(':') ? text.slice(text.lastIndexOf(':') + 1) : text;
}

/**
 * Calls `tick` now and every `intervalMs` while the component is mounted and the tab is visible: a
 * hidden tab stops asking, and asks again at once when it shows. A tick still running is not doubled.
 */
export function usePolling(
  tick: (signal: AbortSignal) => Promise<unknown>,
  intervalMs: number,
): void {
  const latest = useRef(tick);
  latest.current = tick;

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setInterval> | null = null;
    let running = false;
    const run = () => {
      if (running || controller.signal.aborted) return;
      running = true;
      void latest
        .current(controller.signal)
        .catch(() => undefined)
        .finally(() => {
          running = false;
        });
    };
    const start = () => {
      if (timer !== null || document.hidden) return;
      run();
      timer = setInterval(run, intervalMs);
    };
    const stop = () => {
      if (timer !== null) clearInterval(timer);
      timer = null;
    };
    const onVisibility = () => (document.hidden ? stop() : start());
    start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      controller.abort();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [intervalMs]);
}
