// `npm run test:postgres`: the server specs whose behaviour depends on the database, run again on
// the PostgreSQL server of DATABASE_URL (CI's second pass; `npm test` runs every spec on PGlite).
//
// The rule: a spec file whose first line is `// @postgres: <why the database matters here>` runs
// in this pass. Tag a spec when the SQL, the driver or concurrency is what it proves: the event
// store, the read-model runner, the queries behind tables, history and lane rates, races between
// requests, locks, LISTEN/NOTIFY, several processes. PGlite is PostgreSQL's own engine, so a route
// spec that only proves permissions, validation or texts gains nothing from a second pass.
// A spec that opens a database itself (openTestDatabase, openAuthTestDatabase, sqlBackends,
// openDatabase) must carry the tag: this script refuses to run while one does not, and names it.
//
// `--list` prints the tagged files and exits.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoDir, specsUnder } from './specFiles.mjs';

const TAG = /^\/\/ @postgres: \S/;
const OPENS_DATABASE = /\b(openTestDatabase|openAuthTestDatabase|sqlBackends|openDatabase)\(/;

// The folders of tap's `include` (package.json).
const specs = specsUnder('domain', 'server', 'projections', 'test/security');

const tagged = [];
const untagged = [];
for (const file of specs) {
  const text = readFileSync(join(repoDir, file), 'utf8');
  if (TAG.test(text)) tagged.push(file);
  else if (OPENS_DATABASE.test(text)) untagged.push(file);
}
if (untagged.length) {
  console.error(
    `These specs open a database themselves but are not tagged for the PostgreSQL pass; add a first line \`// @postgres: <why>\`:\n  ${untagged.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`test:postgres: ${tagged.length} of ${specs.length} spec files are tagged @postgres`);
if (process.argv.includes('--list')) {
  console.log(tagged.join('\n'));
  process.exit(0);
}
if (!process.env.DATABASE_URL) {
  console.error(
    'test:postgres needs DATABASE_URL (a PostgreSQL server where it may create and drop databases)',
  );
  process.exit(1);
}
const result = spawnSync('npx', ['tap', ...tagged], {
  cwd: repoDir,
  stdio: 'inherit',
  env: process.env,
});
process.exit(result.status ?? 1);
