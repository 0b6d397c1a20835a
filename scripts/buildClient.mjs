// Builds the browser app into dist/client, unless the last build is newer than all its sources,
// so a second `npm start` does not wait for Vite. `--force` (or FORCE_CLIENT_BUILD=1) always builds.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const repoDir = fileURLToPath(new URL('..', import.meta.url));
const configFile = join(repoDir, 'client', 'vite.config.ts');
const builtIndex = join(repoDir, 'dist', 'client', 'index.html');

// The client imports domain/ (catalog, schemas), and dependencies change with the lock file.
const sources = [
  join(repoDir, 'client'),
  join(repoDir, 'domain'),
  join(repoDir, 'package-lock.json'),
];

/** Newest modification time under `path`; directories count too, so a deleted file shows. */
function newestMtime(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0; // an optional source that does not exist
  }
  let newest = stats.mtimeMs;
  if (stats.isDirectory()) {
    for (const entry of readdirSync(path)) {
      if (entry === 'node_modules') continue;
      newest = Math.max(newest, newestMtime(join(path, entry)));
    }
  }
  return newest;
}

function builtMtime() {
  try {
    return statSync(builtIndex).mtimeMs;
  } catch {
    return -1;
  }
}

const force = process.argv.includes('--force') || process.env.FORCE_CLIENT_BUILD === '1';
const built = builtMtime();
const newestSource = Math.max(...sources.map(newestMtime));

if (!force && built > newestSource) {
  console.log(
    'client: skipped the build, dist/client is newer than client/ (use --force to rebuild)',
  );
} else {
  const started = performance.now();
  await build({ configFile, mode: 'production', logLevel: 'info' });
  console.log(
    `client: built dist/client in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
