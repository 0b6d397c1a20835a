/**
 * What a team deploys: every variable the server reads is in .env.example and the README, `.env` is
 * read with the environment winning, MAIL_FROM is checked at start, and the Docker files keep their
 * promises (secrets from the environment, a data volume, a health check and a restart policy, a
 * multi-stage image without dev dependencies running as a non-root user).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { DEFAULT_MAIL_FROM, loadConfig, loadDotEnv } from './config.ts';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The product's own sources (no tests, no test helpers, no benchmarks). */
function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter(
      (entry) =>
        entry.isFile() &&
        /\.(ts|mjs)$/.test(entry.name) &&
        !/\.(spec|test|e2e)\.ts$/.test(entry.name),
    )
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes('testing'));
}
const productFiles = [
  'server',
  'domain',
  'projections',
  'storage',
  'scripts',
  'migrations',
].flatMap(sources);

t.test('every variable the server reads is in .env.example and in the README', async (t) => {
  const names = new Set<string>();
  for (const file of productFiles) {
    for (const match of read(file).matchAll(
      /\b(?:process\.)?env(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])/g,
    ))
      names.add(match[1] ?? match[2]!);
  }
  t.ok(names.size >= 25, `${names.size} variables read: ${[...names].sort().join(' ')}`);
  const example = read('.env.example');
  const readme = read('README.md');
  const listed = new Set(
    [...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!),
  );
  t.same([...names].filter((name) => !listed.has(name)).sort(), [], '.env.example lists each');
  t.same(
    [...names].filter((name) => !readme.includes(`\`${name}\``)).sort(),
    [],
    'the README names each',
  );
  t.match(
    example,
    /^# MAIL_FROM=Freight Marketplace <no-reply@freight\.local>/m,
    'with its default',
  );
});

t.test('.env is read when present; the environment wins', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dotenv-'));
  const file = path.join(dir, '.env');
  writeFileSync(file, 'FREIGHT_SPEC_FROM_FILE=file value\nFREIGHT_SPEC_BOTH=from the file\n');
  process.env.FREIGHT_SPEC_BOTH = 'from the environment';
  t.teardown(() => {
    delete process.env.FREIGHT_SPEC_FROM_FILE;
    delete process.env.FREIGHT_SPEC_BOTH;
  });
  t.equal(loadDotEnv(path.join(dir, 'missing.env')), false, 'no file: nothing read');
  t.equal(loadDotEnv(file), true);
  t.equal(process.env.FREIGHT_SPEC_FROM_FILE, 'file value');
  t.equal(process.env.FREIGHT_SPEC_BOTH, 'from the environment');
});

t.test('MAIL_FROM: the sender of every e-mail, checked at start', async (t) => {
  const config = (MAIL_FROM?: string) => loadConfig({ MAIL_FROM }, { inMemory: true });
  t.equal(config().mailFrom, DEFAULT_MAIL_FROM);
  t.equal(
    config('Acme Freight <dispatch@acme.example>').mailFrom,
    'Acme Freight <dispatch@acme.example>',
  );
  t.equal(config(' dispatch@acme.example ').mailFrom, 'dispatch@acme.example');
  for (const wrong of ['dispatch', 'Acme Freight', 'a@b c@d', '<dispatch>']) {
    t.throws(
      () => config(wrong),
      /MAIL_FROM must be an e-mail address/,
      `"${wrong}" stops the start`,
    );
  }
});

t.test(
  'PUBLIC_URL: the origin of the links in e-mails, checked at start; by default the listening address',
  async (t) => {
    const config = (env: Record<string, string>) => loadConfig(env, { inMemory: true });
    t.equal(config({}).publicUrl, 'http://localhost:3000', 'a wildcard address: localhost');
    t.equal(config({ PORT: '8080', HOST: '127.0.0.1' }).publicUrl, 'http://127.0.0.1:8080');
    t.equal(config({ PORT: '8080', HOST: '::1' }).publicUrl, 'http://[::1]:8080');
    t.equal(
      config({ PUBLIC_URL: 'https://freight.example.com' }).publicUrl,
      'https://freight.example.com',
    );
    t.equal(
      config({ PUBLIC_URL: ' https://Freight.Example.com:8443/ ' }).publicUrl,
      'https://freight.example.com:8443',
      'one trailing slash forgiven, host lower-cased',
    );
    for (const wrong of [
      'freight.example.com',
      'ftp://freight.example.com',
      'https://freight.example.com/app',
      'https://freight.example.com/?x=1',
      'https://freight.example.com#top',
      'https://user:pass@freight.example.com',
      'javascript:alert(1)',
      'https://',
      'https://a.example\\@b.example',
    ]) {
      t.throws(
        () => config({ PUBLIC_URL: wrong }),
        /PUBLIC_URL must be the http\(s\) origin/,
        `"${wrong}" stops the start`,
      );
    }
  },
);

t.test(
  'docker-compose.yml: two app processes behind a proxy, one PostgreSQL, EventStoreDB in a profile; settings from the environment, volumes, health checks, restart policies',
  async (t) => {
    const text = read('docker-compose.yml');
    type Service = Record<string, unknown> & {
      environment?: Record<string, string>;
      depends_on?: Record<string, { condition: string; required?: boolean }>;
      profiles?: string[];
    };
    const compose = parse(text) as {
      services: Record<string, Service>;
      volumes: Record<string, unknown>;
    };
    const { app1, app2, proxy, eventstore, postgres } = compose.services;
    t.ok(
      app1 && app2 && proxy && eventstore && postgres,
      'app1, app2, proxy, postgres and eventstore',
    );
    for (const [name, service] of Object.entries(compose.services))
      t.equal(service.restart, 'unless-stopped', `${name} restarts`);
    t.same(eventstore!.profiles, ['eventstore'], 'EventStoreDB only with the eventstore profile');
    for (const [name, app] of [
      ['app1', app1!],
      ['app2', app2!],
    ] as const) {
      const environment = app.environment!;
      t.same(environment, app1!.environment, `${name}: the same settings as app1 (one source)`);
      for (const optional of ['JWT_SECRET', 'SECRETS_KEY']) {
        t.equal(
          environment[optional],
          `\${${optional}:-}`,
          `${name}: ${optional} is optional (the database holds the keys), and passed on when set`,
        );
      }
      t.match(
        environment.ADMIN_PASSWORD,
        /^\$\{ADMIN_PASSWORD:\?/,
        `${name}: ADMIN_PASSWORD must come from the environment (no default)`,
      );
      t.match(
        environment.DATABASE_URL,
        /\$\{POSTGRES_PASSWORD:\?.*@postgres:5432\//,
        `${name}: the one PostgreSQL, its password from the environment`,
      );
      t.match(
        environment.TRUST_PROXY,
        /:-1\}$/,
        `${name}: behind the proxy, trusts X-Forwarded-For`,
      );
      t.equal(app.depends_on!.postgres!.condition, 'service_healthy');
      t.same(
        app.depends_on!.eventstore,
        { condition: 'service_healthy', required: false },
        `${name}: waits for EventStoreDB only when its profile is on`,
      );
      t.match(
        JSON.stringify((app.healthcheck as { test: string[] }).test),
        /\/api\/health\/ready/,
        `${name}: health checked on /api/health/ready`,
      );
      t.ok(
        (app.volumes as string[]).some((volume) => volume.endsWith(':/data')),
        `${name} keeps its DATA_DIR on a volume`,
      );
      t.match(
        String(app.stop_grace_period),
        /^\d+s$/,
        `${name}: docker stop leaves time for the drain`,
      );
    }
    t.match(
      (postgres!.environment as Record<string, string>).POSTGRES_PASSWORD,
      /^\$\{POSTGRES_PASSWORD:\?/,
    );
    t.notMatch(text, /change-me|PASSWORD: *[a-z0-9]+\s*$/m, 'no password written in the file');
    for (const volume of ['app1-data', 'app2-data', 'postgres-data', 'eventstore-data'])
      t.ok(Object.hasOwn(compose.volumes, volume), `volume ${volume}`);
    t.ok((eventstore!.ports as string[]).includes('2113:2113'), "EventStoreDB's port is published");
    t.ok(
      (proxy!.ports as string[]).includes('3000:80'),
      'the proxy is the one published port of the app',
    );
    t.notOk(app1!.ports || app2!.ports, 'the app processes are reached through the proxy only');
    const mounted = (proxy!.volumes as string[]).find((volume) => volume.includes('Caddyfile'))!;
    t.ok(mounted, 'the proxy reads deploy/Caddyfile');

    // The proxy: round robin over both processes, active health checks on ready, retries of refused connections.
    const caddy = read(mounted.split(':')[0]!.replace(/^\.\//, ''));
    const block = /reverse_proxy\s+([^{]+)\{([\s\S]*?)\n\t\}/.exec(caddy);
    t.ok(block, 'one reverse_proxy block');
    t.same(block![1]!.trim().split(/\s+/), ['app1:3000', 'app2:3000'], 'to both app processes');
    const directives = new Map(
      block![2]!
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#'))
        .map((line) => [line.split(/\s+/)[0]!, line.split(/\s+/).slice(1).join(' ')]),
    );
    t.equal(directives.get('lb_policy'), 'round_robin', 'round robin, no sticky sessions');
    t.equal(directives.get('health_uri'), '/api/health/ready', 'actively health checked on ready');
    t.equal(directives.get('health_status'), '200');
    t.match(directives.get('health_interval'), /^\d+s$/);
    t.match(
      directives.get('lb_try_duration'),
      /^\d+s$/,
      'a refused connection (a killed process) is tried on the next one',
    );
    t.equal(directives.get('flush_interval'), '-1', 'sockets and streams are passed on unbuffered');
    t.notOk(
      directives.has('header_up') && /Connection/i.test(String(directives.get('header_up'))),
      'Caddy passes the WebSocket upgrade on itself; no header rewriting that would break it',
    );
    t.match(
      read('client/src/realtime/transport.ts'),
      /DEFAULT_TRANSPORTS: Transport\[\] = \['websocket'\]/,
      'the browser connects with WebSocket only (no polling handshake that needs stickiness)',
    );
    const example = read('.env.example');
    for (const [, variable] of text.matchAll(/\$\{([A-Z_]+)[:}]/g))
      t.match(example, new RegExp(`^#?\\s*${variable}=`, 'm'), `.env.example lists ${variable}`);
    const compose2 = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
    if (compose2.status === 0) {
      const env = { ...process.env, POSTGRES_PASSWORD: 'p', ADMIN_PASSWORD: 'a' };
      execFileSync(
        'docker',
        ['compose', '-f', path.join(root, 'docker-compose.yml'), 'config', '-q'],
        { env },
      );
      t.pass('docker compose config accepts it');
    } else {
      t.comment(
        'no docker compose here: the YAML checks above stand in for `docker compose config`',
      );
    }
  },
);

t.test(
  'Dockerfile: two stages, production dependencies only, a non-root user, every source folder the server imports',
  async (t) => {
    const text = read('Dockerfile');
    const stages = text.split(/^FROM /m).slice(1);
    t.ok(stages.length >= 2, 'a build stage and a runtime stage');
    const runtime = stages.at(-1)!;
    t.match(runtime, /npm ci [^\n]*--omit=dev/, 'the runtime installs without dev dependencies');
    t.match(runtime, /^USER (?!root\b)\w+/m, 'and runs as a non-root user');
    t.match(runtime, /^HEALTHCHECK .*\n?.*\/api\/health/m, 'with a health check');
    t.match(runtime, /COPY --from=\w+ \/app\/dist\/client/, 'and the built client');
    const copied = new Set(
      [...runtime.matchAll(/^COPY (?!--from)(\S+) /gm)].map((match) =>
        match[1]!.replace(/\/$/, ''),
      ),
    );
    const imported = new Set<string>();
    for (const file of productFiles.filter((name) => !name.startsWith('scripts'))) {
      for (const [, specifier] of read(file).matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
        const top = path
          .relative(root, path.resolve(root, path.dirname(file), specifier!))
          .split(path.sep)[0]!;
        imported.add(top);
      }
    }
    t.same(
      [...imported].filter((dir) => !copied.has(dir)).sort(),
      [],
      `the image holds ${[...imported].sort().join(', ')}`,
    );
  },
);
