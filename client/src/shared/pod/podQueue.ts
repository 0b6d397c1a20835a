import { createStore, del, entries, set, type UseStore } from 'idb-keyval';
import { ApiError } from '../../api/http.ts';
import { podApi, type PodDraft } from './pod.api.ts';

/**
 * Proofs of delivery waiting for the network, kept in IndexedDB (photos and signature as Blobs) so
 * a reload or a dead zone loses nothing. Each is sent as soon as the phone is online, retried with a
 * growing delay, and dropped once the server took it (201) or refused it for good (a 4xx that a retry
 * cannot fix, shown to the driver). Its id makes a proof sent twice be recorded once.
 *
 * A queue belongs to one driver (`owner`): a phone shared by two drivers keeps each one's proofs
 * apart. Another driver signed in on the phone neither sees the first one's photos nor sends them
 * with their own session; they wait in IndexedDB until their driver signs in again.
 */
export type PodQueueEntry = {
  draft: PodDraft;
  state: 'waiting' | 'sending' | 'sent' | 'refused';
  error: string | null;
};

type Listener = (entries: PodQueueEntry[]) => void;

const isFinalRefusal = (error: unknown): boolean =>
  error instanceof ApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 401 &&
  error.status !== 408 &&
  error.status !== 429;

export class PodQueue {
  private readonly items = new Map<string, PodQueueEntry>();
  private readonly listeners = new Set<Listener>();
  private store: UseStore | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private retryDelay = 0;
  private sending: Promise<void> | null = null;
  private readonly ready: Promise<void>;
  private readonly onOnline = () => void this.flush();

  readonly owner: string;
  private readonly send: (draft: PodDraft) => Promise<unknown>;

  constructor(
    owner: string,
    send: (draft: PodDraft) => Promise<unknown> = podApi.send,
    dbName = 'freight-pod',
  ) {
    this.owner = owner;
    this.send = send;
    try {
      this.store = typeof indexedDB === 'undefined' ? null : createStore(dbName, 'proofs');
    } catch {
      this.store = null; // IndexedDB disabled: the queue lives in memory
    }
    this.ready = this.restore();
    if (typeof window !== 'undefined') window.addEventListener('online', this.onOnline);
  }

  private async restore(): Promise<void> {
    if (!this.store) return;
    try {
      for (const [, value] of await entries<string, PodDraft>(this.store)) {
        if (
          value &&
          typeof value.id === 'string' &&
          value.userId === this.owner &&
          !this.items.has(value.id)
        ) {
          this.items.set(value.id, { draft: value, state: 'waiting', error: null });
        }
      }
    } catch {
      return;
    }
    this.changed();
    if (this.waiting().length > 0) void this.flush();
  }

  get current(): PodQueueEntry[] {
    return [...this.items.values()];
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    listener(this.current);
    return () => this.listeners.delete(listener);
  }

  /** Keeps the proof (IndexedDB first, so it survives the page) and tries to send it now. */
  async add(draft: PodDraft): Promise<void> {
    if (draft.userId !== this.owner) throw new Error("A proof goes into its own driver's queue");
    await this.ready;
    this.items.set(draft.id, { draft, state: 'waiting', error: null });
    if (this.store) await set(draft.id, draft, this.store).catch(() => undefined);
    this.changed();
    this.retryDelay = 0;
    await this.flush();
  }

  /** Sends every waiting proof; resolves when the attempt is over. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.sending ??= this.sendAll().finally(() => {
      this.sending = null;
    });
    return this.sending;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (typeof window !== 'undefined') window.removeEventListener('online', this.onOnline);
    this.listeners.clear();
  }

  private waiting(): PodQueueEntry[] {
    return this.current.filter((entry) => entry.state === 'waiting');
  }

  private async sendAll(): Promise<void> {
    for (const entry of this.waiting()) {
      this.update(entry.draft.id, { state: 'sending', error: null });
      try {
        await this.send(entry.draft);
        this.update(entry.draft.id, { state: 'sent' });
      } catch (error) {
        if (isFinalRefusal(error)) {
          this.update(entry.draft.id, {
            state: 'refused',
            error: error instanceof Error ? error.message : String(error),
          });
        } else {
          // Offline or the server unreachable: wait for the network, and try again after a growing delay.
          this.update(entry.draft.id, { state: 'waiting' });
          this.retryDelay = Math.min(60_000, Math.max(2_000, this.retryDelay * 2));
          this.timer = setTimeout(() => void this.flush(), this.retryDelay);
          return;
        }
      }
      this.retryDelay = 0;
      if (this.store) await del(entry.draft.id, this.store).catch(() => undefined);
    }
  }

  private update(id: string, change: Partial<PodQueueEntry>): void {
    const entry = this.items.get(id);
    if (!entry) return;
    this.items.set(id, { ...entry, ...change });
    this.changed();
  }

  private changed(): void {
    const list = this.current;
    for (const listener of this.listeners) listener(list);
  }
}

let shared: PodQueue | null = null;
/** The signed-in driver's queue: one per page, made again when another driver signs in. */
export function podQueue(userId: string): PodQueue {
  if (shared?.owner !== userId) {
    shared?.dispose();
    shared = new PodQueue(userId);
  }
  return shared;
}
