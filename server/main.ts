import { buildApp } from './app.ts';
import { loadConfig, loadDotEnv } from './config.ts';
import { createLogger } from './logger.ts';
import { ensureSuperadmin, seedDemo } from './identity/bootstrap.ts';
import { startPlatform } from './platform.ts';
import { seedMarketplaceDemo } from './demo/marketplaceSeed.ts';
import { startDemoTicker } from './demo/positionTicker.ts';

loadDotEnv();
// `npm start` seeds the demo on an empty database unless DEMO=0.
const config = loadConfig({ DEMO: '1', ...process.env });
const logger = createLogger(config);

const platform = await startPlatform(config, logger);
if (config.demo) await seedDemo(platform);
// Loads in every status and a live truck; a failure here leaves a working, emptier demo.
if (config.demo)
  await seedMarketplaceDemo(platform).catch((err: unknown) =>
    logger.error({ err }, 'demo marketplace could not be seeded'),
  );
const demoTicker = config.demo ? startDemoTicker(platform) : null;
await ensureSuperadmin(platform);
const app = await buildApp(platform);
await app.listen({ port: config.port, host: config.host });
logger.info(`Freight marketplace at ${config.publicUrl}`);

let closing = false;
/**
 * SIGTERM (a deployment replacing this process) drains it: `GET /api/health/ready` answers 503 at
 * once; the projection and reactor locks are given back at once, so another process takes the read
 * models over within a second or two; after DRAIN_DELAY_MS (the load balancer's notice) the listener
 * closes, the sockets are told to reconnect (server-side disconnect: the browser reconnects, through
 * the proxy, to another process), requests in flight get SHUTDOWN_GRACE_MS to finish, and the process
 * exits 0. SIGINT does the same.
 */
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  platform.lifecycle.drain();
  const drainDelayMs = Math.max(0, Number(process.env.DRAIN_DELAY_MS ?? 1000) || 0);
  const graceMs = Math.max(0, Number(process.env.SHUTDOWN_GRACE_MS ?? 10_000) || 0);
  logger.info({ signal, drainDelayMs, graceMs }, 'draining');
  const timer = setTimeout(
    () => {
      logger.error('shutdown timed out');
      process.exit(1);
    },
    drainDelayMs + graceMs + 10_000,
  );
  timer.unref();
  try {
    const released = platform.releaseBackground().then(
      () => logger.info('projection and reactor locks released'),
      (err: unknown) => logger.error({ err }, 'background work did not stop cleanly'),
    );
    await demoTicker?.stop();
    if (drainDelayMs) await new Promise((resolve) => setTimeout(resolve, drainDelayMs));
    // Past the grace, connections still open are cut.
    const grace = setTimeout(() => app.server.closeAllConnections(), graceMs);
    grace.unref();
    await app.close();
    clearTimeout(grace);
    await released;
    await platform.close();
    logger.info('stopped');
    process.exit(0);
  } catch (err) {
    logger.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
