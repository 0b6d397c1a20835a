/**
 * The route fuzz of test/security/fuzzSuite.ts with twenty times the runs per route of `npm test` (1,000 unless
 * FUZZ_RUNS says otherwise), shard 2 of 4: the four run side by side and cover every route.
 */
process.env.FUZZ_RUNS ||= '1000';
process.env.FUZZ_SHARD = '2/4';
await import('../security/fuzzSuite.ts');
