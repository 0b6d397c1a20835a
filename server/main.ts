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
if (config.demo) await seedMarketplaceDemo(platform).catch((err: unknown) => logger.error({ err }, 'demo marketplace could not be seeded'));
const demoTicker = config.demo ? startDemoTicker(platform) : null;
await ensureSuperadmin(platform);
const app = await buildApp(platform);
await app.listen({ port: config.port, host: config.host });
logger.info(`Freight marketplace at http://localhost:${config.port}`);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  logger.info({ signal }, 'shutting down');
  // Stop accepting requests, let those in flight finish, then stop projections and close the database.
  const timer = setTimeout(() => { logger.error('shutdown timed out'); process.exit(1); }, 15_000);
  timer.unref();
  try {
    await demoTicker?.stop();
    await app.close();
    await platform.close();
    process.exit(0);
  } catch (err) {
    logger.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
