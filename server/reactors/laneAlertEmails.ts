/**
 * The e-mail side of lane alerts: alerts wait per user, and a user gets at most one e-mail per
 * `emailEveryMs`, listing every alert since the last. Pending e-mails live in memory: a restart
 * drops them (the socket alerts having gone out already).
 */
import type { Logger } from 'pino';
import type { Mailer } from '../integrations/mail/mailer.ts';
import { alertEmail, type LaneAlert, type Pending, type Recipient } from './laneAlertMessages.ts';

export type LaneAlertEmails = {
  /** Keeps the alert for the recipient's next e-mail; `timezone` is the load's pickup timezone. */
  add(recipient: Recipient, alert: LaneAlert, loadId: string, timezone: string): void;
  /** Sends the e-mails that are due, one at a time; returns how many went. */
  flush(): Promise<number>;
};

export function laneAlertEmails(options: {
  mailer: Pick<Mailer, 'send'>;
  logger: Pick<Logger, 'warn'>;
  clock: () => Date;
  emailEveryMs: number;
}): LaneAlertEmails {
  const { mailer, logger, clock, emailEveryMs } = options;
  const pending = new Map<string, Pending>();
  const lastEmailAt = new Map<string, number>();
  let flushing: Promise<number> = Promise.resolve(0);

  const add = (recipient: Recipient, alert: LaneAlert, loadId: string, timezone: string) => {
    const entry: Pending = pending.get(recipient.id) ?? {
      recipient,
      alerts: [],
      timezones: new Map(),
    };
    entry.recipient = recipient;
    entry.alerts.push(alert);
    entry.timezones.set(loadId, timezone);
    pending.set(recipient.id, entry);
  };

  const sendDue = async (): Promise<number> => {
    const now = clock().getTime();
    let sent = 0;
    for (const [userId, entry] of [...pending]) {
      const last = lastEmailAt.get(userId);
      if (last !== undefined && now - last < emailEveryMs) continue;
      pending.delete(userId);
      lastEmailAt.set(userId, now);
      try {
        await mailer.send(alertEmail(entry));
        sent++;
      } catch (error) {
        // Kept for the next minute, with whatever arrives meanwhile.
        logger.warn({ err: error, userId }, 'lane alerts: e-mail failed');
        const newer = pending.get(userId);
        pending.set(userId, {
          ...entry,
          alerts: [...entry.alerts, ...(newer?.alerts ?? [])],
          timezones: new Map([...entry.timezones, ...(newer?.timezones ?? [])]),
        });
      }
    }
    for (const [userId, at] of lastEmailAt)
      if (now - at >= emailEveryMs && !pending.has(userId)) lastEmailAt.delete(userId);
    return sent;
  };
  const flush = (): Promise<number> => {
    flushing = flushing.catch(() => 0).then(sendDue);
    return flushing;
  };

  return { add, flush };
}
