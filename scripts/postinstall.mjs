// After `npm ci`: builds tap's plugin loader when the dev dependencies are installed. A production
// install (`npm ci --omit=dev`) has no tap and needs nothing here.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoDir = fileURLToPath(new URL('..', import.meta.url));
const tap = join(repoDir, 'node_modules', '.bin', process.platform === 'win32' ? 'tap.cmd' : 'tap');
if (existsSync(tap)) {
  const result = spawnSync(tap, ['build'], {
    cwd: repoDir,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  process.exit(result.status ?? 1);
}
