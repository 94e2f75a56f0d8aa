/** Median and 90th percentile of durations in milliseconds. */
export function summarize(samples: number[]): { median: number; p90: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p90: at(0.9) };
}

/** Runs fn count times in a row; each sample is its duration, or the number of milliseconds fn returns (its own measure). */
export async function timeEach(count: number, fn: (i: number) => Promise<void | number>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const own = await fn(i);
    samples.push(typeof own === 'number' ? own : performance.now() - started);
  }
  return samples;
}

/** The q-quantile (0 < q ≤ 1) of samples by the nearest rank: p99 of 200 samples is the 198th smallest. */
export function percentile(samples: number[], q: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
