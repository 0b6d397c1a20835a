/** Figures of the scale simulation: timestamped samples, percentiles over a window, formatting. */

/** A value observed at a time (performance.now(), ms). */
export type Sample = { at: number; value: number };

export class Samples {
  readonly list: Sample[] = [];

  add(at: number, value: number) {
    this.list.push({ at, value });
  }

  /** The values observed in [from, to). */
  between(from: number, to: number): number[] {
    return this.list
      .filter((sample) => sample.at >= from && sample.at < to)
      .map((sample) => sample.value);
  }

  values(): number[] {
    return this.list.map((sample) => sample.value);
  }
}

export type Spread = { n: number; p50: number; p95: number; p99: number; max: number };

/** Nearest-rank percentiles; NaN when there is nothing to rank. */
export function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) =>
    sorted.length
      ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
      : Number.NaN;
  return {
    n: sorted.length,
    p50: rank(50),
    p95: rank(95),
    p99: rank(99),
    max: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
  };
}

export const mean = (values: number[]) =>
  values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : Number.NaN;

/** Milliseconds, one decimal below 10. */
export const ms = (value: number) =>
  Number.isNaN(value) ? '-' : Math.abs(value) < 10 ? value.toFixed(1) : value.toFixed(0);

export const num = (value: number, digits = 0) =>
  Number.isNaN(value)
    ? '-'
    : value.toLocaleString('en-US', {
        maximumFractionDigits: digits,
        minimumFractionDigits: digits,
      });

export const percent = (part: number, whole: number) =>
  whole > 0 ? `${((100 * part) / whole).toFixed(1)} %` : '-';
