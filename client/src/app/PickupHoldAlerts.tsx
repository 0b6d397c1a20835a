import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ServerPayloads } from '../realtime/socket.ts';
import { useRealtime } from '../realtime/useRealtime.ts';
import { notify } from '../state/common.ts';

const text = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** The reason codes of a dock's hold when a `tour:event` carries one (PickupHeld), else null. */
export function holdReasonsOf(payload: Record<string, unknown>): string[] | null {
  const event = payload.event as { type?: unknown; data?: unknown } | undefined;
  if (event?.type !== 'PickupHeld') return null;
  const reasons = (event.data as { reasons?: unknown } | null)?.reasons;
  return Array.isArray(reasons) ? reasons.filter((code) => typeof code === 'string') : [];
}

/** "Pickup held at the dock for load L-001008: the reasons", in the page's language. */
export const pickupHoldText = (
  t: TFunction,
  payload: Record<string, unknown>,
  reasons: readonly string[],
): string =>
  t('dock.alert.held', {
    load: text(payload.loadGuid) || text(payload.loadId),
    reasons: reasons
      .map((code) => t(`dock.reasons.${code}` as never, { defaultValue: code }) as string)
      .join('; '),
  });

/**
 * A dock's hold is an alert: every signed-in user whose organization is on the tour (both sides'
 * dispatchers, the driver) sees it at once as a warning snackbar, whatever page is open. The app's
 * one realtime connection brings it (`tour:event`, PickupHeld); the header's bell lists it too.
 */
export function PickupHoldAlerts() {
  const { t } = useTranslation();
  useRealtime(['tour:event'], (_event, payload: ServerPayloads['tour:event']) => {
    const reasons = holdReasonsOf(payload as unknown as Record<string, unknown>);
    if (reasons)
      notify('warn', pickupHoldText(t, payload as unknown as Record<string, unknown>, reasons));
  });
  return null;
}
