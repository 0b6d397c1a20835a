import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadSecretsKey } from './cluster/secretBox.ts';
import { USER_EVENTS_PER_SECOND } from './realtime/budget.ts';
import { defaultWebhookSettings, type WebhookSettings } from './webhooks/settings.ts';

export type Config = {
  port: number;
  host: string;
  /**
   * PUBLIC_URL: the origin users reach the app at (`https://freight.example.com`), the base of every
   * link the server writes into an e-mail. Never taken from a request's Host header, which the
   * sender chooses.
   */
  publicUrl: string;
  databaseUrl: string | null;
  eventstoreUrl: string | null;
  dataDir: string;
  /** null keeps the PGlite data in memory (tests). */
  inMemory: boolean;
  /**
   * JWT_SECRET (overrides the keys in the database); random for a database in memory; '' until
   * startPlatform has read the cluster's keys, then the newest signing key.
   */
  jwtSecret: string;
  /** How long an access token lives (ACCESS_TOKEN_TTL_SECONDS, 900): a socket stays open past it only with a fresh one. */
  accessTokenTtlSeconds: number;
  smtpUrl: string | null;
  /** The sender of every e-mail (MAIL_FROM): an address a real relay accepts for this domain. */
  mailFrom: string;
  adminEmail: string;
  adminPassword: string;
  demo: boolean;
  /**
   * SUPERADMIN_TWO_FACTOR: a Superadmin without two-factor sign-in is sent to enrol before anything
   * else. On by default; off by default in the demo (DEMO=1) and for a database in memory (tests),
   * whose Superadmin signs in with the published demo password.
   */
  superadminTwoFactor: boolean;
  logLevel: string;
  prettyLogs: boolean;
  corsOrigins: string[];
  trustProxy: boolean;
  clientDir: string;
  runProjections: boolean;
  /** AES-256-GCM key (base64) sealing the ELD providers' and webhooks' secrets: SECRETS_KEY, else the database's (filled in by startPlatform; '' before). */
  secretsKey: string;
  samsaraBaseUrl: string;
  /** FMCSA_WEBKEY: carriers' authority is read from FMCSA's QCMobile API; null reads the imported file only (offline). */
  fmcsaWebKey: string | null;
  /** FMCSA_BASE_URL: QCMobile's services root. */
  fmcsaBaseUrl: string;
  motiveBaseUrl: string;
  /** How often the ELD poller asks the providers where the trucks of the tours on the road are. */
  eldPollMs: number;
  /** Contentful delivery API for the landing content; null space or token: the built-in content. */
  contentfulSpaceId: string | null;
  contentfulAccessToken: string | null;
  contentfulBaseUrl: string;
  contentfulEnvironment: string;
  /** MAP_TILE_URL: an XYZ tile template drawn under every map; null keeps the bundled US states (offline). */
  mapTileUrl: string | null;
  /** MAP_ATTRIBUTION: the tiles' credit line shown on the map. */
  mapAttribution: string | null;
  /** METRICS_TOKEN: when set, `GET /metrics` answers only `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** Webhook delivery: WEBHOOK_ALLOW_PRIVATE=1 allows private and loopback receivers (and http to them); the waits (tests shorten them). */
  webhooks: WebhookSettings;
  /** EDI_ISA_ID: the marketplace's own X12 interchange and group id (qualifier ZZ), FREIGHTMKT by default. */
  ediIsaId: string;
};

export const DEFAULT_MAIL_FROM = 'Freight Marketplace <no-reply@freight.local>';

/**
 * RATE_LIMIT_PER_MINUTE (1,200): requests a minute per client address on every route. Read when the
 * app is built, so a test or the benchmarks may set it after importing the server.
 */
export const rateLimitPerMinute = (env: NodeJS.ProcessEnv = process.env) =>
  Number(env.RATE_LIMIT_PER_MINUTE || 1200);

/**
 * SOCKET_USER_EVENTS_PER_SECOND (50, server/realtime/budget.ts): socket events a second one user may
 * send over all its sockets in one process. Read when the realtime server is created, as above.
 */
export const socketUserEventsPerSecond = (env: NodeJS.ProcessEnv = process.env) =>
  Number(env.SOCKET_USER_EVENTS_PER_SECOND || USER_EVENTS_PER_SECOND);

/** MAIL_FROM as given ("dispatch@example.com" or "Acme Freight <dispatch@example.com>"); a value that names no address stops the start. */
function mailFromOf(value: string | undefined): string {
  const from = value?.trim();
  if (!from) return DEFAULT_MAIL_FROM;
  if (!/^(?:[^<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/.test(from)) {
    throw new Error(
      `MAIL_FROM must be an e-mail address, optionally with a name ("Acme Freight <dispatch@acme.example>"); got ${JSON.stringify(from)}`,
    );
  }
  return from;
}

/**
 * Reads `.env` from the working directory when it exists (the variables of .env.example). A variable
 * already set in the environment wins over the file. Only the server's entry points call this: tests
 * never read a developer's .env.
 */
export function loadDotEnv(file = path.resolve('.env')): boolean {
  if (!existsSync(file)) return false;
  // Node's own parser; it leaves variables already set alone.
  process.loadEnvFile(file);
  return true;
}

/**
 * MAP_TILE_URL as an XYZ template: http(s), with `{z}`, `{x}` and `{y}` (or `{-y}`), no credentials in
 * the URL; anything else stops the start with a message, since the browser would draw nothing.
 */
function mapTileUrlOf(value: string | undefined): string | null {
  const template = value?.trim();
  if (!template) return null;
  let url: URL | null = null;
  try {
    url = new URL(template.replace(/\{[a-z-]+\}/gi, '0'));
  } catch {
    url = null;
  }
  const placeholders =
    ['{z}', '{x}'].every((part) => template.includes(part)) && /\{-?y\}/.test(template);
  if (
    !url ||
    !['https:', 'http:'].includes(url.protocol) ||
    url.username ||
    url.password ||
    !placeholders
  ) {
    throw new Error(
      `MAP_TILE_URL must be an http(s) XYZ template with {z}, {x} and {y}, e.g. "https://tile.example.com/{z}/{x}/{y}.png"; got ${JSON.stringify(template)}`,
    );
  }
  return template;
}

/**
 * PUBLIC_URL as an origin: http(s), a host, an optional port, nothing else (no credentials, path,
 * query or fragment; one trailing slash is forgiven). Unset: the address the server listens on,
 * `localhost` for a wildcard one. Anything else stops the start with a message.
 */
export function publicUrlOf(
  value: string | undefined,
  listen: { host: string; port: number },
): string {
  const given = value?.trim();
  if (!given) {
    const wildcard = ['', '0.0.0.0', '::', '[::]'].includes(listen.host);
    const host = wildcard
      ? 'localhost'
      : listen.host.includes(':') && !listen.host.startsWith('[')
        ? `[${listen.host}]`
        : listen.host;
    return `http://${host}:${listen.port}`;
  }
  let url: URL | null = null;
  try {
    url = new URL(given);
  } catch {
    url = null;
  }
  const bare = url && /^https?:\/\/[^/?#@\\]+\/?$/i.test(given);
  if (
    !url ||
    !bare ||
    !['https:', 'http:'].includes(url.protocol) ||
    url.username ||
    url.password ||
    !url.hostname
  ) {
    throw new Error(
      `PUBLIC_URL must be the http(s) origin users reach the app at, without a path, e.g. "https://freight.example.com"; got ${JSON.stringify(given)}`,
    );
  }
  return url.origin;
}

const bool = (value: string | undefined, fallback: boolean) =>
  value === undefined || value === ''
    ? fallback
    : ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Config> = {},
): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const inMemory = overrides.inMemory ?? false;
  const production = env.NODE_ENV === 'production';
  const port = Number(env.PORT || 3000);
  const host = env.HOST || '0.0.0.0';
  return {
    port,
    host,
    publicUrl: publicUrlOf(env.PUBLIC_URL, { host, port }),
    databaseUrl: env.DATABASE_URL || null,
    eventstoreUrl: env.EVENTSTORE_URL || null,
    dataDir,
    inMemory,
    // '' here: the database holds the keys (server/cluster/clusterSecrets.ts); startPlatform fills in the one in use.
    jwtSecret: env.JWT_SECRET || (inMemory ? randomBytes(48).toString('base64url') : ''),
    accessTokenTtlSeconds: Math.max(
      5,
      Math.floor(Number(env.ACCESS_TOKEN_TTL_SECONDS || 900) || 900),
    ),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: mailFromOf(env.MAIL_FROM),
    adminEmail: env.ADMIN_EMAIL || 'admin@freight.local',
    adminPassword: env.ADMIN_PASSWORD || 'admin12345',
    demo: bool(env.DEMO, false),
    superadminTwoFactor: bool(env.SUPERADMIN_TWO_FACTOR, !bool(env.DEMO, false) && !inMemory),
    logLevel: env.LOG_LEVEL || 'info',
    prettyLogs: !production && bool(env.PRETTY_LOGS, process.stdout.isTTY ?? false),
    corsOrigins: (env.CORS_ORIGINS || '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    trustProxy: bool(env.TRUST_PROXY, false),
    clientDir: path.resolve(env.CLIENT_DIR || 'dist/client'),
    runProjections: bool(env.RUN_PROJECTIONS, true),
    secretsKey:
      env.SECRETS_KEY || inMemory
        ? loadSecretsKey({ value: env.SECRETS_KEY, inMemory, dataDir })
        : '',
    fmcsaWebKey: env.FMCSA_WEBKEY || null,
    fmcsaBaseUrl: (env.FMCSA_BASE_URL || 'https://mobile.fmcsa.dot.gov/qc/services').replace(
      /\/+$/,
      '',
    ),
    samsaraBaseUrl: (env.SAMSARA_BASE_URL || 'https://api.samsara.com').replace(/\/+$/, ''),
    motiveBaseUrl: (env.MOTIVE_BASE_URL || 'https://api.gomotive.com').replace(/\/+$/, ''),
    eldPollMs: Math.max(1000, Number(env.ELD_POLL_MS || 30_000) || 30_000),
    contentfulSpaceId: env.CONTENTFUL_SPACE_ID || null,
    contentfulAccessToken: env.CONTENTFUL_ACCESS_TOKEN || null,
    contentfulBaseUrl: (env.CONTENTFUL_BASE_URL || 'https://cdn.contentful.com').replace(
      /\/+$/,
      '',
    ),
    contentfulEnvironment: env.CONTENTFUL_ENVIRONMENT || 'master',
    mapTileUrl: mapTileUrlOf(env.MAP_TILE_URL),
    mapAttribution: env.MAP_TILE_URL?.trim() ? env.MAP_ATTRIBUTION?.trim() || null : null,
    webhooks: defaultWebhookSettings(bool(env.WEBHOOK_ALLOW_PRIVATE, false)),
    metricsToken: env.METRICS_TOKEN?.trim() || null,
    ediIsaId: (env.EDI_ISA_ID?.trim() || 'FREIGHTMKT').slice(0, 15),
    ...overrides,
  };
}
