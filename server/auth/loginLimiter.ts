/**
 * Sign-in brute-force limiter: failed attempts in sliding windows, per account and per client
 * address, in memory. The address must be the socket's (request.socket.remoteAddress), never
 * X-Forwarded-For, or a client resets its limit by changing a header. With several server processes
 * each keeps its own counts, so the effective limit is at most processes × the limit.
 */
import { TooManyRequestsError } from '../../domain/shared/errors.ts';

export type LimitRule = { windowMs: number; max: number };
export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };
export type LoginLimiter = ReturnType<typeof createLoginLimiter>;

export const defaultLoginLimits = {
  // 10 a minute is the product rule; 100 an hour caps a patient attacker at the test plan's ceiling,
  // for an account and for an address alike.
  account: [
    { windowMs: 60_000, max: 10 },
    { windowMs: 3_600_000, max: 100 },
  ] as LimitRule[],
  address: [
    { windowMs: 60_000, max: 10 },
    { windowMs: 3_600_000, max: 100 },
  ] as LimitRule[],
};

/** Case, surrounding spaces and Unicode look-alike forms do not make a new account key. */
export const normaliseAccount = (account: string) => account.normalize('NFKC').trim().toLowerCase();

/**
 * The account keys: the name the client typed at sign-in, or, where the user is known (checking a
 * signed-in user's current password), both names sign-in accepts, its e-mail and its username.
 */
type Accounts = string | readonly string[];
const accountKeys = (accounts: Accounts) => [...new Set([accounts].flat().map(normaliseAccount))];

/** The 429 of a limited sign-in, and of a limited current-password check (the same limits). */
export const tooManySignInsMessage = (retryAfterSeconds: number) =>
  `Too many failed sign-ins. Try again in ${retryAfterSeconds} seconds.`;

export function createLoginLimiter(
  options: {
    now?: () => number;
    account?: LimitRule[];
    address?: LimitRule[];
    /** Keys remembered per kind; the least recently failed are forgotten first. */
    maxKeys?: number;
  } = {},
) {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 50_000;
  const accounts = createCounter(options.account ?? defaultLoginLimits.account, maxKeys);
  const addresses = createCounter(options.address ?? defaultLoginLimits.address, maxKeys);

  /** Ask before checking the password: while limited, even the right password is not tried. */
  const check = (account: Accounts, address: string): LimitDecision => {
    const at = now();
    const wait = Math.max(
      ...accountKeys(account).map((key) => accounts.wait(key, at)),
      addresses.wait(address, at),
    );
    return wait > 0
      ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) }
      : { allowed: true };
  };

  return {
    check,
    /** `check` for a route: while limited, sign-in's 429 with Retry-After (a sign-in and a current-password check alike). */
    assertAllowed(account: Accounts, address: string): void {
      const decision = check(account, address);
      if (!decision.allowed)
        throw new TooManyRequestsError(
          tooManySignInsMessage(decision.retryAfterSeconds),
          decision.retryAfterSeconds,
        );
    },
    /** One failure: counted once for the address, and for each of the account's keys. */
    fail(account: Accounts, address: string): void {
      const at = now();
      for (const key of accountKeys(account)) accounts.add(key, at);
      addresses.add(address, at);
    },
    /** A correct sign-in clears the account's failures; the address keeps its own. */
    succeed(account: Accounts): void {
      for (const key of accountKeys(account)) accounts.clear(key);
    },
    /** For tests and metrics. */
    size: () => ({ accounts: accounts.size(), addresses: addresses.size() }),
  };
}

function createCounter(rules: LimitRule[], maxKeys: number) {
  const longest = Math.max(...rules.map((rule) => rule.windowMs));
  // The most failures any window keeps: older ones can never change a decision.
  const keep = Math.max(...rules.map((rule) => rule.max));
  // Failure times, oldest first. Map order is least recently failed first (re-inserted on add).
  const failures = new Map<string, number[]>();

  const prune = (times: number[], at: number) => {
    let drop = 0;
    while (drop < times.length && times[drop] <= at - longest) drop += 1;
    if (times.length - drop > keep) drop = times.length - keep;
    if (drop) times.splice(0, drop);
  };

  function evict(at: number) {
    // First drop what has aged out; if that is not enough, the least recently failed keys.
    for (const [key, times] of failures) {
      prune(times, at);
      if (times.length === 0) failures.delete(key);
    }
    const target = Math.floor(maxKeys * 0.9);
    for (const key of failures.keys()) {
      if (failures.size <= target) break;
      failures.delete(key);
    }
  }

  return {
    /** Milliseconds until the key may try again; 0 when it may now. */
    wait(key: string, at: number): number {
      const times = failures.get(key);
      if (!times) return 0;
      prune(times, at);
      if (times.length === 0) {
        failures.delete(key);
        return 0;
      }
      let wait = 0;
      for (const rule of rules) {
        const inWindow = times.filter((time) => time > at - rule.windowMs);
        if (inWindow.length >= rule.max) {
          // Allowed again when the failure that fills the window to `max` slides out of it.
          const blocking = inWindow[inWindow.length - rule.max];
          wait = Math.max(wait, blocking + rule.windowMs - at);
        }
      }
      return wait;
    },
    add(key: string, at: number): void {
      const times = failures.get(key) ?? [];
      failures.delete(key);
      times.push(at);
      prune(times, at);
      failures.set(key, times);
      if (failures.size > maxKeys) evict(at);
    },
    clear(key: string): void {
      failures.delete(key);
    },
    size: () => failures.size,
  };
}
