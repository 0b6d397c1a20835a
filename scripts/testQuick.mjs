// `npm run test:quick`: the inner loop while changing code, in about a minute or two.
//   - every domain spec (the deciders' given/when/then: no database, a second each);
//   - every read-model spec (projections/);
//   - the specs beside each file changed since main (committed on this branch, staged, unstaged or
//     new): for `server/routes/history.routes.ts` every `server/routes/history.*spec.ts`, and a
//     changed spec itself;
//   - for changed client files, the vitest files that import them (`vitest related`).
// The browser journeys, the fuzzing and the PostgreSQL pass are left to `npm test` and CI.
// `--list` prints what would run without running it; `--base <ref>` compares with another ref.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { repoDir, specsUnder } from './specFiles.mjs';

const args = process.argv.slice(2);
const baseArg = args.includes('--base') ? args[args.indexOf('--base') + 1] : null;

const git = (...gitArgs) => {
  const result = spawnSync('git', gitArgs, { cwd: repoDir, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.split('\n').filter(Boolean) : null;
};

/** Where this branch left main (or the given ref): changes on main itself since then are not ours. */
function baseRef() {
  for (const ref of baseArg ? [baseArg] : ['main', 'origin/main']) {
    const base = git('merge-base', 'HEAD', ref);
    if (base?.length) return base[0];
  }
  return 'HEAD';
}

const base = baseRef();
const changed = [
  ...new Set([
    ...(git('diff', '--name-only', base) ?? []), // committed since the base, staged and unstaged
    ...(git('ls-files', '--others', '--exclude-standard') ?? []), // new, not yet added
  ]),
].filter((file) => existsSync(join(repoDir, file)));

const SERVER_SIDE = /^(domain|server|projections|storage|migrations|test\/security)\//;
const beside = (file) => {
  if (file.endsWith('.spec.ts')) return [file];
  const folder = dirname(file);
  const stem = basename(file).split('.')[0];
  return readdirSync(join(repoDir, folder))
    .filter((name) => name.endsWith('.spec.ts') && name.startsWith(`${stem}.`))
    .map((name) => join(folder, name));
};

const tapFiles = [
  ...new Set([
    ...specsUnder('domain', 'projections'),
    ...changed.filter((file) => SERVER_SIDE.test(file) && /\.(ts|tsx)$/.test(file)).flatMap(beside),
  ]),
].sort();
const clientFiles = changed.filter(
  (file) => file.startsWith('client/src/') && /\.(ts|tsx)$/.test(file),
);

console.log(
  `test:quick: ${changed.length} files changed since ${base === 'HEAD' ? 'HEAD' : base.slice(0, 10)}`,
);
console.log(
  `  tap: ${tapFiles.length} spec files (${tapFiles.filter((file) => !file.startsWith('domain/') && !file.startsWith('projections/')).join(', ') || 'domain and read models only'})`,
);
console.log(
  `  vitest: ${clientFiles.length ? `the tests related to ${clientFiles.length} changed client files` : 'nothing (no client file changed)'}`,
);
if (args.includes('--list')) process.exit(0);

const started = Date.now();
const run = (command, commandArgs) =>
  spawnSync(command, commandArgs, { cwd: repoDir, stdio: 'inherit', env: process.env }).status ?? 1;
const tapStatus = run('npx', ['tap', ...tapFiles]);
const vitestStatus = clientFiles.length
  ? run('npx', [
      'vitest',
      'related',
      '--run',
      '--passWithNoTests',
      '--config',
      'client/vite.config.ts',
      ...clientFiles,
    ])
  : 0;
const status = tapStatus || vitestStatus;
console.log(
  `test:quick: ${status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(status);
