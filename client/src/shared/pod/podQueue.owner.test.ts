import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { PodDraft } from './pod.api.ts';
import { PodQueue } from './podQueue.ts';

const draft = (id: string, userId: string): PodDraft => ({
  id,
  userId,
  tourId: 'tour-1',
  receivedBy: 'Rita Receiver',
  note: '',
  photos: [new Blob(['jpeg'])],
  signature: null,
  queuedAt: '2026-12-01T10:00:00.000Z',
});

/** Waits until `check` holds (IndexedDB answers on later turns of the event loop). */
async function until(check: () => boolean) {
  for (let turn = 0; turn < 200 && !check(); turn++)
    await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

// A phone shared by two drivers, with IndexedDB (fake-indexeddb) as in the browser.
describe('the proof of delivery queue on a shared phone', () => {
  it("keeps a driver's unsent proof from the next driver, and sends it when its driver is back", async () => {
    const database = `pod-${crypto.randomUUID()}`;
    const offline = vi.fn(async (_draft: PodDraft) => {
      throw new TypeError('Failed to fetch');
    });
    const first = new PodQueue('driver-1', offline, database);
    await first.add(draft('p1', 'driver-1'));
    expect(first.current.map((entry) => entry.state)).toEqual(['waiting']);
    first.dispose();

    // Driver 2 signs in on the same phone: nothing of driver 1's shows, and nothing is sent with driver 2's session.
    const othersSend = vi.fn(async (_draft: PodDraft) => ({ id: 'x' }));
    const second = new PodQueue('driver-2', othersSend, database);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second.current).toEqual([]);
    expect(othersSend).not.toHaveBeenCalled();
    await expect(second.add(draft('p2', 'driver-1'))).rejects.toThrow();
    second.dispose();

    // Driver 1 again, online: the proof is restored from IndexedDB and sent once, under its id.
    const send = vi.fn(async (_draft: PodDraft) => ({ id: 'p1' }));
    const again = new PodQueue('driver-1', send, database);
    await until(() => again.current[0]?.state === 'sent');
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![0]).toMatchObject({
      id: 'p1',
      userId: 'driver-1',
      receivedBy: 'Rita Receiver',
    });
    again.dispose();

    // Sent proofs leave the phone.
    const later = vi.fn(async (_draft: PodDraft) => ({ id: 'p1' }));
    const fourth = new PodQueue('driver-1', later, database);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fourth.current).toEqual([]);
    expect(later).not.toHaveBeenCalled();
    fourth.dispose();
  });
});
