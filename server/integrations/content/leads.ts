/**
 * The sign-up-interest form of the landing page: a visitor's address becomes a lead (its command
 * is `server/commands/leads.ts`) and the administrator is told by e-mail, once per address.
 */
import type { MailMessage } from '../mail/mailer.ts';

/** The e-mail the administrator gets about a new lead. */
export const leadNotice = (
  adminEmail: string,
  lead: { email: string },
  at: string,
): MailMessage => ({
  to: adminEmail,
  subject: `New interest from the landing page: ${lead.email}`,
  text:
    `Hello,\n\nA visitor left this in the "keep me posted" form of the landing page on ${at}:\n\n${lead.email}\n\n` +
    'They would like to hear about Freight Marketplace: write back to them, or create an organization for them in the administration.\n',
});

/**
 * Requests per e-mail address in a sliding window, in memory (each server process keeps its own
 * counts). `take` counts one request and answers 0, or the seconds to wait when the address is over
 * its limit (a refused request is not counted).
 */
export function createLeadLimiter(options: {
  max: number;
  windowMs: number;
  now?: () => number;
  maxKeys?: number;
}) {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 10_000;
  const hits = new Map<string, number[]>();
  return {
    take(key: string): number {
      const at = now();
      const recent = (hits.get(key) ?? []).filter((time) => time > at - options.windowMs);
      if (recent.length >= options.max) {
        hits.set(key, recent);
        return Math.max(1, Math.ceil((recent[0]! + options.windowMs - at) / 1000));
      }
      recent.push(at);
      hits.delete(key);
      hits.set(key, recent);
      // Forget the addresses heard from least recently once there are too many.
      for (const stale of hits.keys()) {
        if (hits.size <= maxKeys) break;
        hits.delete(stale);
      }
      return 0;
    },
  };
}
