// The timing loop the benches share: sides that take turns request by request.

/**
 * Median wall time in ms of a workload run on each side, `sides[k](i)` handling the workload's
 * request `i`. The sides take turns request by request, each call timed alone; a sample is one
 * pass over the workload's requests; the first passes run untimed (10, or a tenth of the budget).
 * At least 5 timed passes, then more while the budget (per side) lasts, at most 201.
 */
export function timeInTurns(sides, n, budgetMs) {
  return samplesInTurns(sides, n, budgetMs).map((s) => quantile(s, 0.5));
}

/** `timeInTurns`'s samples of each side, in ms, sorted. */
export function samplesInTurns(sides, n, budgetMs) {
  const pass = () => {
    const sums = sides.map(() => 0);
    for (let i = 0; i < n; i++) {
      for (const [k, side] of sides.entries()) {
        const start = performance.now();
        side(i);
        sums[k] += performance.now() - start;
      }
    }
    return sums;
  };
  const total = budgetMs * sides.length;
  let start = performance.now();
  for (let runs = 0; runs < 10 && (runs === 0 || performance.now() - start < total / 10); runs++) pass();
  start = performance.now();
  const samples = sides.map(() => []);
  while (samples[0].length < 5 || (samples[0].length < 201 && performance.now() - start < total)) {
    for (const [k, t] of pass().entries()) samples[k].push(t);
  }
  return samples.map((s) => s.sort((x, y) => x - y));
}

/** The sample at quantile `q` of sorted samples: 0.5 the median, 0.1 the tenth percentile. */
export function quantile(sorted, q) {
  return sorted[Math.floor(sorted.length * q)];
}
