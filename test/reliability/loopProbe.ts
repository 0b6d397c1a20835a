/**
 * Preloaded into a server the reliability suite spawns (`--import`): once a second, writes the
 * event loop's delay percentiles and the resident memory to LOOP_PROBE_FILE, so the test reads the
 * server's own figures rather than its client's.
 */
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.LOOP_PROBE_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const timer = setInterval(() => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    try {
      writeFileSync(
        file,
        JSON.stringify({
          rssBytes: process.memoryUsage.rss(),
          loopP50Ms: ms(histogram.percentile(50)),
          loopP99Ms: ms(histogram.percentile(99)),
          loopMaxMs: ms(histogram.max),
        }),
      );
    } catch {
      /* the folder is gone: the test is over */
    }
  }, 1000);
  timer.unref();
  // The test resets the histogram at the start of a measured window.
  process.on('SIGUSR2', () => histogram.reset());
}
