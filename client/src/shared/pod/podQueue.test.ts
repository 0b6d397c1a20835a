import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/http.ts';
import type { PodDraft } from './pod.api.ts';
import { PodQueue, type PodQueueEntry } from './podQueue.ts';

const draft = (id: string): PodDraft => ({
  id,
  userId: 'driver-1',
  tourId: 'tour-1',
  receivedBy: 'Rita Receiver',
  note: '',
  photos: [new Blob(['jpeg'])],
  signature: null,
  queuedAt: '2026-12-01T10:00:00.000Z',
});

// jsdom has no IndexedDB: the queue keeps its proofs in memory, which is what these tests read.
describe('the proof of delivery queue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps a proof while the network is down, retries, and sends it once the phone is online', async () => {
    let online = false;
    const send = vi.fn(async (_draft: PodDraft) => {
      if (!online) throw new TypeError('Failed to fetch');
      return { id: 'p1' };
    });
    const queue = new PodQueue('driver-1', send);
    const seen: PodQueueEntry['state'][] = [];
    queue.subscribe((entries) => {
      if (entries[0]) seen.push(entries[0].state);
    });
    await queue.add(draft('p1'));
    expect(queue.current.map((entry) => entry.state)).toEqual(['waiting']);
    expect(send).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(2_000);
    expect(send).toHaveBeenCalledTimes(2);
    expect(queue.current[0]!.state).toBe('waiting');

    online = true;
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(send).toHaveBeenCalledTimes(3);
    expect(queue.current[0]!.state).toBe('sent');
    // The same draft (its id) every time: the server records it once.
    expect(send.mock.calls.every(([sent]) => sent.id === 'p1')).toBe(true);
    expect(seen).toContain('sending');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(send).toHaveBeenCalledTimes(3);
    queue.dispose();
  });

  it('stops on a refusal a retry cannot fix, and shows why', async () => {
    const send = vi.fn(async (_draft: PodDraft) => {
      throw new ApiError(409, 'This tour is already delivered');
    });
    const queue = new PodQueue('driver-1', send);
    await queue.add(draft('p2'));
    expect(queue.current[0]).toMatchObject({
      state: 'refused',
      error: 'This tour is already delivered',
    });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(send).toHaveBeenCalledTimes(1);
    queue.dispose();
  });
});
