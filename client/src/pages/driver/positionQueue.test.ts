import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/http.ts';
import { MPS_TO_MPH, PositionQueue, positionOf } from './positionQueue.ts';

const fix = (index: number) => ({
  latitude: 41 + index / 100,
  longitude: -87,
  speed: 50,
  heading: 90,
  accuracy: 5,
  recordedAt: new Date(Date.UTC(2026, 11, 1, 16, 0, index)).toISOString(),
});

describe('the position queue', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    window.localStorage.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('converts a browser fix: m/s to mph, no NaN heading, the fix time', () => {
    expect(MPS_TO_MPH).toBeCloseTo(2.23694, 5);
    expect(
      positionOf({
        coords: {
          latitude: 41.9,
          longitude: -87.6,
          speed: 26.8224,
          heading: Number.NaN,
          accuracy: 12,
        },
        timestamp: Date.UTC(2026, 11, 1),
      }),
    ).toEqual({
      latitude: 41.9,
      longitude: -87.6,
      speed: 60,
      heading: null,
      accuracy: 12,
      recordedAt: '2026-12-01T00:00:00.000Z',
    });
  });

  it('sends a batch after the delay, or at once when the batch is full; fixes arriving meanwhile wait for the next batch', async () => {
    const batches: number[] = [];
    let release: () => void = () => undefined;
    const send = vi.fn((_tour: string, positions: unknown[]) => {
      batches.push(positions.length);
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    const queue = new PositionQueue({ send, batchSize: 3, flushDelayMs: 5_000 });
    queue.add('t1', fix(0));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([1]);
    // Three more while the first request is still out: they are not sent one by one behind it.
    for (const index of [1, 2, 3]) queue.add('t1', fix(index));
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([1, 3]);
    release();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(batches).toEqual([1, 3]);
    expect(queue.current).toMatchObject({ pending: 0, failing: false });
    queue.dispose();
  });

  it('keeps the positions through failures, retries with a growing delay, survives a reload, and drops what the server refuses for good', async () => {
    let failures = 2;
    const send = vi.fn(async () => {
      if (failures-- > 0) throw new TypeError('Failed to fetch');
    });
    const queue = new PositionQueue({
      send,
      storageKey: 'test.queue',
      batchSize: 2,
      flushDelayMs: 1_000,
    });
    queue.add('t1', fix(0));
    queue.add('t1', fix(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.current).toMatchObject({ pending: 2, failing: true });
    // Another page (a reload) finds them waiting.
    expect(JSON.parse(window.localStorage.getItem('test.queue')!)).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(send).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3_999);
    expect(send).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledTimes(3);
    expect(queue.current).toMatchObject({ pending: 0, failing: false });
    expect(window.localStorage.getItem('test.queue')).toBe('[]');
    queue.dispose();

    const refusing = new PositionQueue({
      send: async () => {
        throw new ApiError(409, 'A tour that is Delivered takes no positions');
      },
      batchSize: 1,
    });
    refusing.add('t1', fix(2));
    await vi.advanceTimersByTimeAsync(0);
    expect(refusing.current).toMatchObject({ pending: 0, failing: false, lastSentAt: null });
    refusing.dispose();
  });
});
