/** The route fuzz (fuzzSuite.ts), shard 1 of 2: the two run side by side. */
process.env.FUZZ_SHARD = '1/2';
await import('./fuzzSuite.ts');
