/** How webhooks are delivered (Config.webhooks); tests shorten the waits. */
export type WebhookSettings = {
  /** WEBHOOK_ALLOW_PRIVATE=1: private and loopback addresses allowed, and http to them. */
  allowPrivate: boolean;
  /** No answer within this long is a failed attempt (5 s). */
  timeoutMs: number;
  /** The wait after the first failed attempt; doubled after each (with jitter), up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** A delivery still failing this long after it was queued is `failed` (24 h). */
  giveUpAfterMs: number;
  /** Failed attempts in a row before the managers get an e-mail. */
  notifyAfterAttempts: number;
  /** Attempts in flight at once, over all endpoints. */
  concurrency: number;
  /** How often the sender looks for due deliveries besides being woken. */
  pollMs: number;
  /** Events older than this are forgotten, with their deliveries (30 days): a replay reaches back this far at most. */
  retentionMs: number;
  /**
   * How long the reactor keeps its list of endpoints without hearing of a change (5 s). Changes are
   * heard at once (this process's own, another's through a NOTIFY); this bounds a notice lost.
   */
  endpointsFreshMs: number;
};

export const defaultWebhookSettings = (allowPrivate = false): WebhookSettings => ({
  allowPrivate,
  timeoutMs: 5_000,
  firstDelayMs: 5_000,
  maxDelayMs: 60 * 60_000,
  giveUpAfterMs: 24 * 60 * 60_000,
  notifyAfterAttempts: 5,
  concurrency: 16,
  pollMs: 1_000,
  retentionMs: 30 * 24 * 60 * 60_000,
  endpointsFreshMs: 5_000,
});
