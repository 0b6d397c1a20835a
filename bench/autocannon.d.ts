/** autocannon ships no types; the part of its API the benchmarks use. */
declare module 'autocannon' {
  const autocannon: (options: Record<string, unknown>) => Promise<Record<string, any>>;
  export default autocannon;
}
