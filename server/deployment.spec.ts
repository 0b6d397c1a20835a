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
    .filter((entry) => entry.isFile() && /\.(ts|mjs)$/.test(entry.name) && !/\.(spec|test|e2e)\.ts$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes('testing'));
}
const productFiles = ['server', 'domain', 'projections', 'storage', 'scripts', 'migrations'].flatMap(sources);

t.test('every variable the server reads is in .env.example and in the README', async (t) => {
  const names = new Set<string>();
  for (const file of productFiles) {
    for (const match of read(file).matchAll(/\b(?:process\.)?env(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])/g)) names.add(match[1] ?? match[2]!);
  }
  t.ok(names.size >= 25, `${names.size} variables read: ${[...names].sort().join(' ')}`);
  const example = read('.env.example');
  const readme = read('README.md');
  const listed = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!));
  t.same([...names].filter((name) => !listed.has(name)).sort(), [], '.env.example lists each');
  t.same([...names].filter((name) => !readme.includes(`\`${name}\``)).sort(), [], 'the README names each');
  t.match(example, /^# MAIL_FROM=Freight Marketplace <no-reply@freight\.local>/m, 'with its default');
});

t.test('.env is read when present; the environment wins', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dotenv-'));
  const file = path.join(dir, '.env');
  writeFileSync(file, 'FREIGHT_SPEC_FROM_FILE=file value\nFREIGHT_SPEC_BOTH=from the file\n');
  process.env.FREIGHT_SPEC_BOTH = 'from the environment';
  t.teardown(() => { delete process.env.FREIGHT_SPEC_FROM_FILE; delete process.env.FREIGHT_SPEC_BOTH; });
  t.equal(loadDotEnv(path.join(dir, 'missing.env')), false, 'no file: nothing read');
  t.equal(loadDotEnv(file), true);
  t.equal(process.env.FREIGHT_SPEC_FROM_FILE, 'file value');
  t.equal(process.env.FREIGHT_SPEC_BOTH, 'from the environment');
});

t.test('MAIL_FROM: the sender of every e-mail, checked at start', async (t) => {
  const config = (MAIL_FROM?: string) => loadConfig({ MAIL_FROM }, { inMemory: true });
  t.equal(config().mailFrom, DEFAULT_MAIL_FROM);
  t.equal(config('Acme Freight <dispatch@acme.example>').mailFrom, 'Acme Freight <dispatch@acme.example>');
  t.equal(config(' dispatch@acme.example ').mailFrom, 'dispatch@acme.example');
  for (const wrong of ['dispatch', 'Acme Freight', 'a@b c@d', '<dispatch>']) {
    t.throws(() => config(wrong), /MAIL_FROM must be an e-mail address/, `"${wrong}" stops the start`);
  }
});

t.test('docker-compose.yml: secrets from the environment, volumes, health checks, restart policies', async (t) => {
  const text = read('docker-compose.yml');
  const compose = parse(text) as { services: Record<string, Record<string, unknown>>; volumes: Record<string, unknown> };
  const { app, eventstore, postgres } = compose.services;
  t.ok(app && eventstore && postgres, 'app, eventstore and postgres');
  for (const [name, service] of Object.entries(compose.services)) t.equal(service.restart, 'unless-stopped', `${name} restarts`);
  const environment = app!.environment as Record<string, string>;
  for (const secret of ['JWT_SECRET', 'SECRETS_KEY', 'ADMIN_PASSWORD']) {
    t.match(environment[secret], new RegExp(`^\\$\\{${secret}:\\?`), `${secret} must come from the environment (no default)`);
  }
  t.match(environment.DATABASE_URL, /\$\{POSTGRES_PASSWORD:\?/, 'the database password too');
  t.match((postgres!.environment as Record<string, string>).POSTGRES_PASSWORD, /^\$\{POSTGRES_PASSWORD:\?/);
  t.notMatch(text, /change-me|PASSWORD: *[a-z0-9]+\s*$/m, 'no password written in the file');
  t.ok((app!.volumes as string[]).some((volume) => volume.endsWith(':/data')), 'the app keeps DATA_DIR on a volume');
  t.ok(Object.hasOwn(compose.volumes, 'app-data'));
  t.match(JSON.stringify((app!.healthcheck as { test: string[] }).test), /\/api\/health/, 'the app has a health check');
  t.ok((eventstore!.ports as string[]).includes('2113:2113'), "EventStoreDB's port is published");
  const example = read('.env.example');
  for (const [, variable] of text.matchAll(/\$\{([A-Z_]+)[:}]/g)) t.match(example, new RegExp(`^#?\\s*${variable}=`, 'm'), `.env.example lists ${variable}`);
  const compose2 = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  if (compose2.status === 0) {
    const env = { ...process.env, POSTGRES_PASSWORD: 'p', JWT_SECRET: 'j', SECRETS_KEY: 's', ADMIN_PASSWORD: 'a' };
    execFileSync('docker', ['compose', '-f', path.join(root, 'docker-compose.yml'), 'config', '-q'], { env });
    t.pass('docker compose config accepts it');
  } else {
    t.comment('no docker compose here: the YAML checks above stand in for `docker compose config`');
  }
});

t.test('Dockerfile: two stages, production dependencies only, a non-root user, every source folder the server imports', async (t) => {
  const text = read('Dockerfile');
  const stages = text.split(/^FROM /m).slice(1);
  t.ok(stages.length >= 2, 'a build stage and a runtime stage');
  const runtime = stages.at(-1)!;
  t.match(runtime, /npm ci [^\n]*--omit=dev/, 'the runtime installs without dev dependencies');
  t.match(runtime, /^USER (?!root\b)\w+/m, 'and runs as a non-root user');
  t.match(runtime, /^HEALTHCHECK .*\n?.*\/api\/health/m, 'with a health check');
  t.match(runtime, /COPY --from=\w+ \/app\/dist\/client/, 'and the built client');
  const copied = new Set([...runtime.matchAll(/^COPY (?!--from)(\S+) /gm)].map((match) => match[1]!.replace(/\/$/, '')));
  const imported = new Set<string>();
  for (const file of productFiles.filter((name) => !name.startsWith('scripts'))) {
    for (const [, specifier] of read(file).matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const top = path.relative(root, path.resolve(root, path.dirname(file), specifier!)).split(path.sep)[0]!;
      imported.add(top);
    }
  }
  t.same([...imported].filter((dir) => !copied.has(dir)).sort(), [], `the image holds ${[...imported].sort().join(', ')}`);
});
