/**
 * `npm run bench` runs every target; `npm run bench -- --quick` a shorter version (under two
 * minutes); `npm run bench -- T1 T4` only those. Each target measures its baseline in the same run
 * and prints `Tn name: ours/baseline = R (target >= X) ok|below` with the absolute figures.
 */
import { lines, quick } from './lib.ts';
import { backends } from './setup.ts';
import { t10 } from './targets/client.ts';
import { t10Phone } from './targets/phonePages.ts';
import { t9, t9b } from './targets/fanout.ts';
import { t11 } from './targets/flood.ts';
import { t1, t2, t3 } from './targets/http.ts';
import { t8 } from './targets/positions.ts';
import { t5, t7 } from './targets/pipeline.ts';
import { t6 } from './targets/rebuild.ts';
import { t4 } from './targets/store.ts';

const only = process.argv
  .slice(2)
  .filter((arg) => /^T\d+b?$/i.test(arg))
  .map((arg) => arg.toUpperCase());
const wanted = (id: string) => only.length === 0 || only.includes(id);

console.log(
  `Benchmarks${quick ? ' (quick)' : ''}: ${process.env.DATABASE_URL ? 'PostgreSQL at DATABASE_URL and the embedded PGlite' : 'the embedded PGlite (set DATABASE_URL for PostgreSQL)'}; medians of three; loopback.`,
);
const started = Date.now();
for (const backend of backends()) {
  if (wanted(backend === 'postgres' ? 'T1' : 'T1B')) await t1(backend);
}
if (wanted('T2')) await t2(backends()[0]!, quick ? 20_000 : 100_000);
if (wanted('T3')) await t3();
for (const backend of backends()) if (wanted('T4')) await t4(backend);
for (const backend of backends()) if (wanted('T5')) await t5(backend);
if (wanted('T6')) await t6(backends()[0]!);
for (const backend of backends()) if (wanted('T7')) await t7(backend);
if (wanted('T8')) await t8(backends()[0]!);
if (wanted('T9')) await t9(backends()[0]!);
if (wanted('T9B')) await t9b();
if (wanted('T10')) await t10();
if (wanted('T10')) await t10Phone();
if (wanted('T11')) await t11(backends()[0]!);

const below = lines.filter((line) => !line.ok);
console.log(
  `\n${lines.length} targets measured in ${Math.round((Date.now() - started) / 1000)} s: ${lines.length - below.length} ok, ${below.length} below${below.length ? ` (${below.map((line) => line.id).join(', ')})` : ''}.`,
);
process.exit(0);
