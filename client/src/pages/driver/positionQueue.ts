import { ApiError } from '../../api/http.ts';
import type { PositionInput } from '../../shared/tours/tours.api.ts';

/** Metres per second (what browsers report) to miles per hour (what the API takes). */
export const MPS_TO_MPH = 3600 / 1609.344;

/** A browser position as the API takes it: speed in mph, no NaN headings, the fix's own time. */
export function positionOf(position: {
  coords: Pick<GeolocationCoordinates, 'latitude' | 'longitude' | 'speed' | 'heading' | 'accuracy'>;
  timestamp: number;
}): PositionInput {
  const { latitude, longitude, speed, heading, accuracy } = position.coords;
  const finite = (value: number | null | undefined): value is number =>
    typeof value === 'number' && Number.isFinite(value);
  return {
    latitude,
    longitude,
    speed: finite(speed) ? Math.min(200, Math.round(speed * MPS_TO_MPH * 10) / 10) : null,
    heading: finite(heading) ? Math.min(360, Math.max(0, heading)) : null,
    accuracy: finite(accuracy) ? Math.min(100_000, accuracy) : null,
    recordedAt: new Date(position.timestamp).toISOString(),
  };
}

export interface QueuedPosition extends PositionInput {
  tourId: string;
}

export interface QueueState {
  /** Positions waiting to be sent. */
  pending: number;
  /** When a batch last reached the server. */
  lastSentAt: string | null;
  /** The last attempt failed (no network, server down): the queue retries by itself. */
  failing: boolean;
}

export interface QueueOptions {
  send: (tourId: string, positions: PositionInput[]) => Promise<unknown>;
  /** Where queued positions survive a reload; null keeps them in memory only. */
  storageKey?: string | null;
  /** Send as soon as this many are waiting. */
  batchSize?: number;
  /** Otherwise send this long after the first one waiting. */
  flushDelayMs?: number;
  maxRetryDelayMs?: number;
}

const MAX_QUEUED = 2_000;
const MAX_PER_REQUEST = 500;

function readStored(key: string | null): QueuedPosition[] {
  if (!key) return [];
  try {
    const stored = JSON.parse(window.localStorage.getItem(key) ?? '[]') as unknown;
    return Array.isArray(stored)
      ? (stored as QueuedPosition[]).filter((entry) => typeof entry?.tourId === 'string')
      : [];
  } catch {
    return [];
  }
}

/** A refusal that sending again cannot fix (a finished tour, a bad position): those positions are dropped. */
const isFinalRefusal = (error: unknown): boolean =>
  error instanceof ApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 401 &&
  error.status !== 408 &&
  error.status !== 429;

/**
 * Positions waiting for the server, sent in batches: when `batchSize` are waiting or `flushDelayMs`
 * after the first one. A failed send keeps them and retries with a growing delay (a phone in a dead
 * zone), and again as soon as the browser is back online; the queue outlives a reload.
 */
export class PositionQueue {
  private queue: QueuedPosition[];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private sending: Promise<void> | null = null;
  private retryDelay = 0;
  private state: QueueState;
  private readonly listeners = new Set<(state: QueueState) => void>();
  private readonly options: Required<QueueOptions>;
  private readonly onOnline = () => void this.flush();

  constructor(options: QueueOptions) {
    this.options = {
      storageKey: null,
      batchSize: 10,
      flushDelayMs: 5_000,
      maxRetryDelayMs: 60_000,
      ...options,
    };
    this.queue = readStored(this.options.storageKey);
    this.state = { pending: this.queue.length, lastSentAt: null, failing: false };
    if (typeof window !== 'undefined') window.addEventListener('online', this.onOnline);
    if (this.queue.length > 0) this.schedule(this.options.flushDelayMs);
  }

  get current(): QueueState {
    return this.state;
  }

  subscribe(listener: (state: QueueState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  add(tourId: string, position: PositionInput): void {
    this.queue.push({ ...position, tourId });
    if (this.queue.length > MAX_QUEUED) this.queue.splice(0, this.queue.length - MAX_QUEUED);
    this.changed({});
    if (this.queue.length >= this.options.batchSize && this.retryDelay === 0) void this.flush();
    else if (!this.timer) this.schedule(this.retryDelay || this.options.flushDelayMs);
  }

  /** Sends what is waiting now; resolves when the attempt is over. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.sending ??= this.sendAll().finally(() => {
      this.sending = null;
      // What arrived during the sends: a full batch goes next, a partial one after the delay.
      if (this.queue.length > 0 && (!this.timer || this.queue.length >= this.options.batchSize)) {
        this.schedule(
          this.retryDelay ||
            (this.queue.length >= this.options.batchSize ? 0 : this.options.flushDelayMs),
        );
      }
    });
    return this.sending;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (typeof window !== 'undefined') window.removeEventListener('online', this.onOnline);
    this.listeners.clear();
  }

  private async sendAll(): Promise<void> {
    // Only what waits now: fixes arriving during the sends wait for the next batch, not one request each.
    const due = new Set(this.queue);
    for (;;) {
      const waiting = this.queue.filter((entry) => due.has(entry));
      if (waiting.length === 0) return;
      const tourId = waiting[0].tourId;
      const batch = waiting.filter((entry) => entry.tourId === tourId).slice(0, MAX_PER_REQUEST);
      let delivered = true;
      try {
        await this.options.send(
          tourId,
          batch.map(({ tourId: _tour, ...position }) => position),
        );
      } catch (error) {
        delivered = false;
        if (!isFinalRefusal(error)) {
          this.retryDelay = Math.min(
            this.options.maxRetryDelayMs,
            Math.max(2_000, this.retryDelay * 2),
          );
          this.changed({ failing: true });
          this.schedule(this.retryDelay);
          return;
        }
      }
      const sent = new Set(batch);
      this.queue = this.queue.filter((entry) => !sent.has(entry));
      this.retryDelay = 0;
      this.changed(
        delivered ? { failing: false, lastSentAt: new Date().toISOString() } : { failing: false },
      );
    }
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), delay);
  }

  private changed(update: Partial<QueueState>): void {
    this.state = { ...this.state, ...update, pending: this.queue.length };
    if (this.options.storageKey) {
      try {
        window.localStorage.setItem(this.options.storageKey, JSON.stringify(this.queue));
      } catch {
        // storage full or disabled: the queue lives in memory
      }
    }
    for (const listener of this.listeners) listener(this.state);
  }
}
