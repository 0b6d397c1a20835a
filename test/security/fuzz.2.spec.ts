/** The route fuzz (fuzzSuite.ts), shard 2 of 2: the two run side by side. */
process.env.FUZZ_SHARD = '2/2';
await import('./fuzzSuite.ts');
