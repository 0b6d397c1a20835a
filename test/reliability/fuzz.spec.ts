/**
 * The fuzz suite of test/security/fuzz.spec.ts with five times the runs per route (1,000 unless
 * FUZZ_RUNS says otherwise): every route, every role, derived and hostile inputs.
 */
process.env.FUZZ_RUNS ||= '1000';
await import('../security/fuzz.spec.ts');
