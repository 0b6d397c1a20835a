/**
 * `npm run test:esdb`: the event-store contract, the projection runner, health, a marketplace flow, a
 * tour's positions, a load's history and a read-model rebuild through HTTP on the EventStoreDB adapter.
 *
 * With EVENTSTORE_URL set, every file runs against that server. Without it, each file gets an
 * in-memory gRPC test server of its own (test/esdb/server.ts), started here: the app-level files
 * count what their read models hold, which other files' events in the same log would change.
 * Two files run at a time; each one's output is printed when it ends.
 */
import { spawn } from 'node:child_process';
import { startTestEventStoreServer } from './server.ts';

const args = process.argv.slice(2);
// Files named on the command line run instead of the whole set (tap's options pass through).
const named = args.filter((arg) => !arg.startsWith('-'));
const options = args.filter((arg) => arg.startsWith('-'));
const files = named.length
  ? named
  : [
      'test/esdb/esdb.spec.ts',
      'test/esdb/health.spec.ts',
      'projections/runner.spec.ts',
      // One shipment from posting to rating; a tour's positions (appended on condition that the
      // tour's stream stood still); a load's history replayed at a moment; and a read model rebuilt
      // through HTTP while it is read.
      'server/routes/marketplace.flow.spec.ts',
      'server/routes/tours.run.spec.ts',
      'server/routes/loads.history.spec.ts',
      'server/routes/projections.routes.spec.ts',
    ];
const real = process.env.EVENTSTORE_URL;
console.log(`EventStoreDB: ${real ?? 'an in-memory test server for each file'}`);

const run = async (
  file: string,
): Promise<{ file: string; code: number; seconds: number; events: number | null }> => {
  const started = Date.now();
  const server = real ? null : await startTestEventStoreServer();
  const output: Buffer[] = [];
  const tap = spawn(
    'npx',
    ['tap', '--disable-coverage', '--allow-empty-coverage', ...options, file],
    {
      env: { ...process.env, EVENTSTORE_URL: real ?? server!.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  tap.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  tap.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  const code = await new Promise<number>((resolve) =>
    tap.on('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
  );
  const events = server ? server.log.events.length : null;
  await server?.close();
  process.stdout.write(`\n== ${file}\n${Buffer.concat(output).toString('utf8')}`);
  return { file, code, seconds: (Date.now() - started) / 1000, events };
};

const started = Date.now();
const queue = [...files];
const results: Awaited<ReturnType<typeof run>>[] = [];
await Promise.all(
  [0, 1].map(async () => {
    for (let file = queue.shift(); file; file = queue.shift()) results.push(await run(file));
  }),
);
console.log('\n== test:esdb');
for (const { file, code, seconds, events } of results) {
  console.log(
    `${code === 0 ? 'pass' : 'FAIL'}  ${file}  ${seconds.toFixed(1)} s${events === null ? '' : `, ${events} events in its test server`}`,
  );
}
console.log(`test:esdb finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(results.every(({ code }) => code === 0) ? 0 : 1);
