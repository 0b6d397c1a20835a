// Preloaded (`node --import ./scripts/testing/compileCache.mjs`) by the test runners: Node keeps
// the compiled code of every module it loads on disk and reuses it in the next process. A spec file, a journey's
// server and a reliability row's child each load the whole server (several hundred modules); with the
// cache each starts in about half the CPU time. Child processes inherit the cache through
// NODE_COMPILE_CACHE. A stale entry is never used: Node checks each entry against the source's hash.
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'freight-marketplace-compile-cache');
module.enableCompileCache?.(process.env.NODE_COMPILE_CACHE);

// tap starts every test process with --enable-source-maps, which makes Node read and keep the
// source map of each dependency as it loads (about 1 s of CPU a process here). Our TypeScript runs
// with its types stripped in place, so its line and column numbers are already the source's.
process.setSourceMapsEnabled(false);
