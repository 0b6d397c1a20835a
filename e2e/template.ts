/**
 * The journeys' starting data folder (harness.ts TEMPLATE_DIR): the server started once as
 * `npm start` starts it, on an empty folder with the demo seed, then stopped. Each journey's server
 * starts on a copy (E2E_TEMPLATE=1), so the migrations and the seed run once a test run, not once a
 * journey. Run by `npm run test:e2e` before the journeys.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { startServer, TEMPLATE_DIR } from './harness.ts';

const started = Date.now();
rmSync(TEMPLATE_DIR, { recursive: true, force: true });
mkdirSync(TEMPLATE_DIR, { recursive: true });
const server = await startServer({}, TEMPLATE_DIR);
const health = await fetch(`${server.url}/api/health`);
if (!health.ok) throw new Error(`the template's server answered ${health.status}`);
// SIGTERM: the server drains and closes its database, so the folder is whole when copied.
await server.stop({ keepData: true });
rmSync(`${TEMPLATE_DIR}/server.pid`, { force: true });
writeFileSync(`${TEMPLATE_DIR}/ready`, new Date().toISOString());
console.log(
  `e2e: demo data folder seeded once in ${((Date.now() - started) / 1000).toFixed(1)} s at ${TEMPLATE_DIR}`,
);
