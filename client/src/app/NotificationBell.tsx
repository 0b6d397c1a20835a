import { atom, useAtom } from 'jotai';
import { Badge } from 'primereact/badge';
import { Button } from 'primereact/button';
import { OverlayPanel } from 'primereact/overlaypanel';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useRealtime } from '../realtime/useRealtime.ts';
import { notify } from '../state/common.ts';
import { holdReasonsOf, pickupHoldText } from './PickupHoldAlerts.tsx';

/** The events the bell lists (`load:posted` is the marketplace's own, not a personal notice). */
const BELL_EVENTS = [
  'proposal:new',
  'proposal:updated',
  'tour:status',
  'tour:event',
  'chat:message',
] as const;
type RealtimeEvent = (typeof BELL_EVENTS)[number];

export interface AppNotification {
  id: number;
  event: RealtimeEvent;
  payload: Record<string, unknown>;
  at: string;
  read: boolean;
}

/** Notifications received on the realtime channel, newest first (at most 50). */
export const notificationsAtom = atom<AppNotification[]>([]);
let nextId = 1;

const text = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

function linkOf(notification: AppNotification): string | null {
  const { payload } = notification;
  if (notification.event === 'proposal:new' && payload.loadId)
    return `/offers/shipper/load/${text(payload.loadId)}`;
  if (notification.event === 'chat:message' && payload.tourId)
    return `/chat/tour/${text(payload.tourId)}`;
  if (
    (notification.event === 'tour:status' || notification.event === 'tour:event') &&
    payload.tourId
  )
    return `/track/tour/${text(payload.tourId)}`;
  return null;
}

/** The header's bell: live notifications from the realtime channel, with an unread count. */
export function NotificationBell() {
  const { t, i18n } = useTranslation();
  const [notifications, setNotifications] = useAtom(notificationsAtom);
  const panel = useRef<OverlayPanel>(null);
  const unread = notifications.filter((notification) => !notification.read).length;

  const describe = (notification: AppNotification): string => {
    const { payload } = notification;
    switch (notification.event) {
      case 'proposal:new':
        return t('notifications.proposalNew', {
          load: text(payload.loadGuid) || text(payload.loadId),
          price: Number(payload.price ?? 0).toFixed(2),
        });
      case 'proposal:updated':
        return t('notifications.proposalUpdated');
      case 'tour:status':
      case 'tour:event': {
        const reasons = holdReasonsOf(payload);
        if (reasons) return pickupHoldText(t, payload, reasons);
        return t('notifications.tourStatus');
      }
      case 'chat:message':
        return t('notifications.chatMessage');
    }
  };

  // The app's one realtime connection (opened at sign-in) brings them.
  useRealtime(BELL_EVENTS, (event, payload) => {
    const notification: AppNotification = {
      id: nextId++,
      event,
      payload: payload as unknown as Record<string, unknown>,
      at: new Date().toISOString(),
      read: false,
    };
    setNotifications((list) => [notification, ...list].slice(0, 50));
    if (event === 'proposal:new') notify('info', describe(notification));
  });

  const time = new Intl.DateTimeFormat(i18n.resolvedLanguage, {
    hour: 'numeric',
    minute: '2-digit',
  });
  return (
    <>
      <Button
        type="button"
        rounded
        text
        className="topbar-icon-button p-overlay-badge"
        aria-label={t('notifications.open', { count: unread })}
        onClick={(event) => panel.current?.toggle(event)}
      >
        <i className="pi pi-bell" aria-hidden="true" />
        {unread > 0 && <Badge value={unread > 9 ? '9+' : unread} severity="danger" />}
      </Button>
      <OverlayPanel
        ref={panel}
        className="notification-panel"
        onHide={() => setNotifications((list) => list.map((item) => ({ ...item, read: true })))}
      >
        <div className="notification-header">
          <strong>{t('notifications.title')}</strong>
          {notifications.length > 0 && (
            <Button
              type="button"
              link
              size="small"
              label={t('notifications.clear')}
              onClick={() => setNotifications([])}
            />
          )}
        </div>
        {notifications.length === 0 ? (
          <p className="notification-empty">
            <i className="pi pi-inbox" aria-hidden="true" /> {t('notifications.empty')}
          </p>
        ) : (
          <ul className="notification-list">
            {notifications.map((notification) => {
              const link = linkOf(notification);
              const body = (
                <>
                  <span>{describe(notification)}</span>
                  <time dateTime={notification.at}>{time.format(new Date(notification.at))}</time>
                </>
              );
              return (
                <li key={notification.id} className={notification.read ? '' : 'is-unread'}>
                  {link ? (
                    <Link href={link} onClick={() => panel.current?.hide()}>
                      {body}
                    </Link>
                  ) : (
                    body
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </OverlayPanel>
    </>
  );
}
