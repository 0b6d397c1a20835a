/**
 * Where a server process stands for a load balancer: serving, or draining after SIGTERM
 * (`GET /api/health/ready` answers 503 from the first instant of the drain; server/main.ts).
 */
export type Lifecycle = {
  readonly phase: 'serving' | 'draining';
  /** When the drain began (ISO), null while serving. */
  readonly drainingSince: string | null;
  /** Starts the drain; once. */
  drain(): void;
};

export function createLifecycle(): Lifecycle {
  let drainingSince: string | null = null;
  return {
    get phase() {
      return drainingSince ? ('draining' as const) : ('serving' as const);
    },
    get drainingSince() {
      return drainingSince;
    },
    drain() {
      drainingSince ??= new Date().toISOString();
    },
  };
}
