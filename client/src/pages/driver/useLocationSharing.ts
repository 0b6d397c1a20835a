import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { distanceMeters } from '../../../../domain/tours/geo.ts';
import type { PositionInput } from '../../shared/tours/tours.api.ts';
import { toursApi } from '../../shared/tours/tours.api.ts';
import { PositionQueue, positionOf, type QueueState } from './positionQueue.ts';
import { authUserAtom } from '../../state/session.ts';

/** 'waiting' until the first fix arrives (the permission prompt may be open). */
export type SharingStatus = 'off' | 'waiting' | 'on' | 'denied' | 'unavailable' | 'error';

const CHOICE_KEY = 'driver.shareLocation';
/** Followed by the driver's id: a phone shared by two drivers keeps each one's unsent positions apart. */
const QUEUE_KEY = 'driver.positionQueue';
/** A new position is kept when the truck moved this far or this much time passed since the last kept one. */
const MIN_MOVE_METERS = 20;
const MIN_INTERVAL_MS = 15_000;

function storedChoice(): boolean {
  try {
    return window.localStorage.getItem(CHOICE_KEY) !== 'off';
  } catch {
    return true;
  }
}

export interface LocationSharing {
  /** The driver's choice (remembered on this device); sharing runs only while a tour is active. */
  enabled: boolean;
  setEnabled: (enabled: boolean) => void;
  status: SharingStatus;
  last: PositionInput | null;
  queue: QueueState;
}

/**
 * Shares the phone's position for a tour while `active`: `watchPosition` fixes, thinned to one per
 * 20 m or 15 s, queued and sent in batches that survive a flaky network (positionQueue.ts).
 */
export function useLocationSharing(tourId: string | null, active: boolean): LocationSharing {
  const [enabled, setEnabledState] = useState(storedChoice);
  const [status, setStatus] = useState<SharingStatus>('off');
  const [last, setLast] = useState<PositionInput | null>(null);
  const queueRef = useRef<PositionQueue | null>(null);
  const [queue, setQueue] = useState<QueueState>({ pending: 0, lastSentAt: null, failing: false });

  const userId = useAtomValue(authUserAtom)?.id ?? null;

  useEffect(() => {
    const created = new PositionQueue({
      send: (id, positions) => toursApi.positions(id, positions),
      storageKey: userId ? `${QUEUE_KEY}.${userId}` : null,
    });
    queueRef.current = created;
    setQueue(created.current);
    const unsubscribe = created.subscribe(setQueue);
    return () => {
      unsubscribe();
      void created.flush().finally(() => created.dispose());
      queueRef.current = null;
    };
  }, [userId]);

  const setEnabled = (next: boolean) => {
    setEnabledState(next);
    try {
      window.localStorage.setItem(CHOICE_KEY, next ? 'on' : 'off');
    } catch {
      // the choice holds for this visit only
    }
  };

  useEffect(() => {
    if (!enabled || !active || !tourId) {
      setStatus('off');
      return;
    }
    const geolocation = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
    if (!geolocation) {
      setStatus('unavailable');
      return;
    }
    setStatus('waiting');
    let kept: PositionInput | null = null;
    const watchId = geolocation.watchPosition(
      (fix) => {
        const position = positionOf(fix);
        setStatus('on');
        setLast(position);
        const moved = kept ? distanceMeters(kept, position) : Infinity;
        const waited = kept
          ? Date.parse(position.recordedAt) - Date.parse(kept.recordedAt)
          : Infinity;
        if (moved < MIN_MOVE_METERS && waited < MIN_INTERVAL_MS) return;
        kept = position;
        queueRef.current?.add(tourId, position);
      },
      (error) => setStatus(error.code === error.PERMISSION_DENIED ? 'denied' : 'error'),
      { enableHighAccuracy: true, maximumAge: 5_000, timeout: 60_000 },
    );
    return () => {
      geolocation.clearWatch(watchId);
      void queueRef.current?.flush();
    };
  }, [enabled, active, tourId]);

  return { enabled, setEnabled, status, last, queue };
}
