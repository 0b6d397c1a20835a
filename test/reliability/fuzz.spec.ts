/**
 * The fuzz suite of test/security/fuzz.spec.ts with ten times the runs per route (2,000 unless
 * FUZZ_RUNS says otherwise): every route, every role, derived and hostile inputs.
 */
process.env.FUZZ_RUNS ||= '2000';
await import('../security/fuzz.spec.ts');
