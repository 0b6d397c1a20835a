/**
 * `npm run test:esdb`: the event-store contract, the projection runner and a marketplace flow on the
 * EventStoreDB adapter. Against EVENTSTORE_URL when it is set (a real server), else against the
 * in-memory gRPC test server (test/esdb/server.ts), started here for the whole run.
 */
import { spawn } from 'node:child_process';
import { startTestEventStoreServer } from './server.ts';

const args = process.argv.slice(2);
// Files named on the command line run instead of the whole set (tap's options pass through).
const named = args.filter((arg) => !arg.startsWith('-'));
const files = named.length ? [] : ['test/esdb/esdb.spec.ts', 'projections/runner.spec.ts', 'server/routes/marketplace.flow.spec.ts'];
const server = process.env.EVENTSTORE_URL ? null : await startTestEventStoreServer();
const url = process.env.EVENTSTORE_URL ?? server!.url;
console.log(`EventStoreDB: ${url}${server ? ' (in-memory test server)' : ''}`);
const started = Date.now();
const tap = spawn('npx', ['tap', '--disable-coverage', '--allow-empty-coverage', ...args, ...files], {
  env: { ...process.env, EVENTSTORE_URL: url }, stdio: 'inherit',
});
const code = await new Promise<number>((resolve) => tap.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
console.log(`test:esdb finished in ${((Date.now() - started) / 1000).toFixed(1)} s${server ? `; the test server holds ${server.log.events.length} events in ${server.log.streams.size} streams` : ''}`);
await server?.close();
process.exit(code);
