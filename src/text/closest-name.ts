// "Did you mean": the known name nearest to a mistyped one, by edit distance. The CLI asks it for
// commands, options, targets, formats and kernel names; the `run --args` reader for argument names.

/**
 * Edits between two strings, a swap of two neighbours counting as one (`lowr` → `lower` is one,
 * `fromat` → `format` is one). Stops early, returning `limit + 1`, once every way is past `limit`.
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  // Three rows: the one before the previous (for swaps), the previous, and this one.
  let before = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let row = new Array<number>(b.length + 1).fill(0);
  // The smallest entry of the previous row: a swap reaches two rows back, so the scan stops only
  // when this row is past the limit and the previous one could not come back under it by a swap.
  let prevBest = 0;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = row[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > limit && prevBest >= limit) return limit + 1;
    prevBest = best;
    [before, prev, row] = [prev, row, before];
  }
  return Math.min(prev[b.length], limit + 1);
}

/**
 * The candidate nearest to `name`, or undefined when none is near enough to be a likely typo: at
 * most a third of the name's length in edits (and at least one), as the TypeScript compiler's
 * spelling suggestions allow. Case differences alone count as the nearest of all. The first of
 * equally near candidates wins, so callers list the likelier ones first.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    if (c === name) continue;
    const d = c.toLowerCase() === lower ? 0.5 : editDistance(lower, c.toLowerCase(), limit);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** `; did you mean 'x'?` when a candidate is near, else nothing: for the end of a message. */
export function didYouMean(
  name: string,
  candidates: Iterable<string>,
  spell: (c: string) => string = (c) => c,
): string {
  const c = closestName(name, candidates);
  return c === undefined ? '' : `; did you mean '${spell(c)}'?`;
}
