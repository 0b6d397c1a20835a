import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { DB } from '../../../storage/schema.ts';
import { DEFAULT_MAIL_FROM } from '../../config.ts';

/**
 * Outgoing e-mail (sign-up codes, reset links). With SMTP_URL it goes out through nodemailer;
 * without it, the offline default, it is written to the log and kept in the `outbox` table, which a
 * Superadmin reads at GET /api/admin/outbox.
 */
export type MailMessage = { to: string; subject: string; text: string };
export type OutboxEntry = { id: string; to: string; subject: string; text: string; at: string };
export type Mailer = {
  mode: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  listOutbox(limit?: number): Promise<OutboxEntry[]>;
  close(): Promise<void>;
};
/** The part of pino this needs, so tests can pass a plain object. */
export type MailLogger = {
  info(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
};

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);

export function createMailer(options: {
  smtpUrl: string | null;
  db: Kysely<DB>;
  logger: MailLogger;
  from?: string;
}): Mailer {
  const { db } = options;
  const from = options.from ?? DEFAULT_MAIL_FROM;
  const transport = options.smtpUrl
    ? nodemailer.createTransport(smtpOptions(options.smtpUrl))
    : null;

  return {
    mode: transport ? 'smtp' : 'outbox',
    async send(message) {
      checkMessage(message);
      if (transport) {
        try {
          const info = await transport.sendMail({
            from,
            to: message.to,
            subject: message.subject,
            text: message.text,
          });
          options.logger.info(
            { to: message.to, subject: message.subject, messageId: info.messageId },
            'e-mail sent',
          );
        } catch (error) {
          // The caller decides what a lost code means; the log keeps the reason.
          options.logger.error(
            { err: error, to: message.to, subject: message.subject },
            'e-mail could not be sent',
          );
          throw error;
        }
        return;
      }
      await db
        .insertInto('outbox')
        .values({
          id: randomUUID(),
          to: message.to,
          subject: message.subject,
          text: message.text,
          created_at: new Date(),
        })
        .execute();
      // On purpose with the text: with no SMTP server, the log is where a developer reads the code.
      options.logger.info(
        { to: message.to, subject: message.subject, text: message.text },
        'e-mail kept in the outbox (SMTP_URL is not set)',
      );
    },
    listOutbox: (limit) => listOutbox(options.db, limit),
    async close() {
      transport?.close();
    },
  };
}

/** The newest `limit` (1–500, default 50) kept e-mails, newest first. */
export async function listOutbox(db: Kysely<DB>, limit = 50): Promise<OutboxEntry[]> {
  const rows = await db
    .selectFrom('outbox')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(Math.min(500, Math.max(1, Math.trunc(limit) || 50)))
    .execute();
  return rows.map((row) => ({
    id: row.id,
    to: row.to,
    subject: row.subject,
    text: row.text,
    at: new Date(row.created_at).toISOString(),
  }));
}

/** smtp://user:pass@host:port or smtps://…; plain smtp to this machine skips STARTTLS (dev servers lack it). */
export function smtpOptions(smtpUrl: string) {
  const url = new URL(smtpUrl);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, not ${url.protocol}`);
  const secure = url.protocol === 'smtps:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    host,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ignoreTLS: !secure && LOCAL_HOSTS.has(host),
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    // A hung mail server must not hold a sign-up request open for minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
}

function checkMessage(message: MailMessage) {
  // One recipient, and no line breaks that could smuggle headers into the outbox or a log line.
  if (!/^[^\s@,;<>]+@[^\s@,;<>]+$/.test(message.to))
    throw new Error('A single plain e-mail address is required');
  if (/[\r\n]/.test(message.subject)) throw new Error('A subject is one line');
}
