import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { distanceMeters } from '../../../../domain/tours/geo.ts';
import type { PositionInput } from '../../shared/tours/tours.api.ts';
import { toursApi } from '../../shared/tours/tours.api.ts';
import { PositionQueue, positionOf, type QueueState } from './positionQueue.ts';
import { authUserAtom } from '../../state/session.ts';

/**
 * 'waiting' until the first fix arrives (the permission prompt may be open); 'ask' while the phone
 * has not been allowed yet and the driver has not turned sharing on here: the prompt then opens on
 * the driver's tap, never by itself as the page loads.
 */
export type SharingStatus = 'off' | 'ask' | 'waiting' | 'on' | 'denied' | 'unavailable' | 'error';

/** The browser's answer for the page's geolocation permission; 'unknown' without the Permissions API. */
type Permission = 'pending' | 'granted' | 'prompt' | 'denied' | 'unknown';

const CHOICE_KEY = 'driver.shareLocation';
/** Followed by the driver's id: a phone shared by two drivers keeps each one's unsent positions apart. */
const QUEUE_KEY = 'driver.positionQueue';
/** A new position is kept when the truck moved this far or this much time passed since the last kept one. */
const MIN_MOVE_METERS = 20;
const MIN_INTERVAL_MS = 15_000;

/** The driver's choice on this device: 'on', 'off', or null when never made (sharing is then meant on). */
function storedChoice(): 'on' | 'off' | null {
  try {
    const stored = window.localStorage.getItem(CHOICE_KEY);
    return stored === 'on' || stored === 'off' ? stored : null;
  } catch {
    return null;
  }
}

/** The geolocation permission as it stands, followed as it changes (the driver answers a prompt). */
function usePermission(): Permission {
  const [permission, setPermission] = useState<Permission>('pending');
  useEffect(() => {
    const permissions = typeof navigator === 'undefined' ? undefined : navigator.permissions;
    if (!permissions?.query) {
      setPermission('unknown');
      return;
    }
    let live = true;
    let status: PermissionStatus | null = null;
    const follow = () => {
      if (live && status) setPermission(status.state);
    };
    permissions.query({ name: 'geolocation' }).then(
      (result) => {
        status = result;
        follow();
        result.addEventListener('change', follow);
      },
      () => live && setPermission('unknown'),
    );
    return () => {
      live = false;
      status?.removeEventListener('change', follow);
    };
  }, []);
  return permission;
}

export interface LocationSharing {
  /** The driver's choice (remembered on this device); sharing runs only while a tour is active. */
  enabled: boolean;
  setEnabled: (enabled: boolean) => void;
  /** Starts sharing on the driver's tap (status 'ask'): the phone's permission prompt opens now. */
  start: () => void;
  status: SharingStatus;
  last: PositionInput | null;
  queue: QueueState;
}

/**
 * Shares the phone's position for a tour while `active`: `watchPosition` fixes, thinned to one per
 * 20 m or 15 s, queued and sent in batches that survive a flaky network (positionQueue.ts).
 */
export function useLocationSharing(tourId: string | null, active: boolean): LocationSharing {
  const [choice, setChoice] = useState(storedChoice);
  const enabled = choice !== 'off';
  const permission = usePermission();
  // Never a prompt by itself: while the phone has not been allowed, sharing waits for the driver's
  // tap unless the driver turned it on here before (then the prompt is the one the driver expects).
  const held: 'pending' | 'ask' | null =
    permission === 'pending'
      ? 'pending'
      : permission === 'prompt' && choice !== 'on'
        ? 'ask'
        : null;
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
    setChoice(next ? 'on' : 'off');
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
    if (held) {
      setStatus(held === 'pending' ? 'waiting' : 'ask');
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
  }, [enabled, active, tourId, held]);

  return { enabled, setEnabled, start: () => setEnabled(true), status, last, queue };
}
