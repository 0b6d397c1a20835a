import { useEffect, useRef } from 'react';
import { apiGet, apiPost } from '../../api/http.ts';

export type ReadModelStatus = 'running' | 'catching-up' | 'stalled' | 'rebuilding';

/** A log position as the server writes it: 'transactionId:globalPosition', a number, or the pair. */
export type LogPositionValue = string | number | { transactionId?: string | number; globalPosition?: string | number } | null;

/** One read model as `GET admin/projections` answers it (docs/api.md "Read models in trouble"). */
export interface ReadModel {
  projection: string;
  version: number;
  status: ReadModelStatus;
  position: LogPositionValue;
  lag: number;
  parked: number;
  /** While rebuilding: how far the new tables are (progress from 0 to 1). */
  rebuild: { progress: number; position: LogPositionValue } | null;
}

/** An event a read model set aside because applying it failed. */
export interface ParkedEvent {
  eventId: string;
  streamId: string;
  type: string;
  position: string;
  error: string;
  at: string;
}

const base = (name: string) => `/admin/projections/${encodeURIComponent(name)}`;

export const readModelsApi = {
  list: (signal?: AbortSignal) => apiGet<ReadModel[]>('/admin/projections', { signal }),
  parked: (name: string, signal?: AbortSignal) => apiGet<ParkedEvent[]>(`${base(name)}/parked`, { signal }),
  /** 200 when the event now applies; a 409 ApiError carrying the error when it still fails. */
  retry: (name: string, eventId: string) => apiPost<{ eventId: string; applied: boolean }>(`${base(name)}/parked/${encodeURIComponent(eventId)}/retry`),
  /** 202: the read model is rebuilt beside the live one and swapped in once caught up. */
  rebuild: (name: string) => apiPost<unknown>(`${base(name)}/rebuild`),
};

/** The global position of a log position, for people: '1234'. */
export function positionText(position: LogPositionValue | undefined): string {
  if (position === null || position === undefined) return '–';
  if (typeof position === 'object') return String(position.globalPosition ?? position.transactionId ?? '–');
  const text = String(position);
  return text.includes(':') ? text.slice(text.lastIndexOf(':') + 1) : text;
}

/**
 * Calls `tick` now and every `intervalMs` while the component is mounted and the tab is visible: a
 * hidden tab stops asking, and asks again at once when it shows. A tick still running is not doubled.
 */
export function usePolling(tick: (signal: AbortSignal) => Promise<unknown>, intervalMs: number): void {
  const latest = useRef(tick);
  latest.current = tick;

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setInterval> | null = null;
    let running = false;
    const run = () => {
      if (running || controller.signal.aborted) return;
      running = true;
      void latest.current(controller.signal).catch(() => undefined).finally(() => {
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
