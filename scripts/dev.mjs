// Development: the API server under `tsx watch` (restarts on change) and Vite's dev server (hot
// reload, proxying /api and /socket.io to the API), together; Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const repoDir = fileURLToPath(new URL('..', import.meta.url));
const tsxBin = join(
  repoDir,
  'node_modules',
  '.bin',
  process.platform === 'win32' ? 'tsx.cmd' : 'tsx',
);

const api = spawn(tsxBin, ['watch', 'server/main.ts'], {
  cwd: repoDir,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' },
});
const apiRunning = () => api.exitCode === null && api.signalCode === null;

let vite;
let stopping = false;

async function stop(exitCode) {
  if (stopping) return;
  stopping = true;
  if (apiRunning()) {
    api.kill('SIGTERM');
    // tsx stops its own child on SIGTERM; give it a moment, then insist.
    const killer = setTimeout(() => api.kill('SIGKILL'), 5000);
    await once(api, 'exit');
    clearTimeout(killer);
  }
  await vite?.close();
  process.exit(exitCode);
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
// tsx watch survives crashes of the server itself; if tsx goes, development is over.
api.on('exit', (code, signal) => {
  if (stopping) return;
  console.error(`dev: the API process ended (${signal ?? `exit code ${code}`}); stopping Vite`);
  void stop(code || 1);
});

try {
  vite = await createServer({ configFile: join(repoDir, 'client', 'vite.config.ts') });
  await vite.listen();
  vite.printUrls();
} catch (error) {
  console.error('dev: Vite could not start:', error);
  await stop(1);
}
