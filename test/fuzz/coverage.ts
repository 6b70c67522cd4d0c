// Coverage feedback from V8's own block coverage (the data `node --experimental-test-coverage`
// reads), taken in process through the inspector. Jazzer.js would give libFuzzer's edge counters,
// but its native addon (4.0.0, the only release whose binary ships inside the npm package) needs
// glibc 2.38 and Debian bookworm has 2.36; older releases download their binary from GitHub.
import { Session } from 'node:inspector';

interface Range {
  startOffset: number;
  endOffset: number;
  count: number;
}
interface ScriptCoverage {
  url: string;
  functions: { ranges: Range[] }[];
}

/** hit counts in libFuzzer's buckets: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+ */
function bucket(n: number): number {
  return n <= 3 ? n : n < 8 ? 4 : n < 16 ? 5 : n < 32 ? 6 : n < 128 ? 7 : 8;
}

export class Coverage {
  private readonly session = new Session();
  /** Every feature seen so far: a block of the code under test with a hit-count bucket. */
  readonly seen = new Set<string>();
  private readonly scripts = new Map<string, number>();
  /** Every block of the code under test V8 has reported, covered or not. */
  private readonly known = new Set<string>();

  /**
   * counts: a block hit 1, 2, 3, 4-7... times are different features (libFuzzer's counters: finer,
   * but many more inputs kept and many more coverage reads). Off, a feature is a block covered.
   */
  constructor(
    private readonly include: (url: string) => boolean,
    private readonly counts = false,
  ) {
    this.session.connect();
    this.post('Profiler.enable');
    this.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  }

  private post(method: string, params?: object): unknown {
    let result: unknown;
    let error: unknown;
    // The in-process session answers synchronously.
    this.session.post(method, params as never, (e, r) => {
      error = e;
      result = r;
    });
    if (error) throw error;
    return result;
  }

  /** Coverage reads so far: each costs ~5-10 ms once the target's code has run, so the worker counts them. */
  reads = 0;

  /** The features hit since the last call (counters reset on every take). */
  take(): string[] {
    this.reads++;
    const { result } = this.post('Profiler.takePreciseCoverage') as { result: ScriptCoverage[] };
    const out: string[] = [];
    for (const s of result) {
      if (!this.include(s.url)) continue;
      let id = this.scripts.get(s.url);
      if (id === undefined) this.scripts.set(s.url, (id = this.scripts.size));
      for (const f of s.functions) {
        for (const r of f.ranges) {
          if (r.count > 0) out.push(`${id}:${r.startOffset}:${r.endOffset}:${this.counts ? bucket(r.count) : 1}`);
          else this.known.add(`${id}:${r.startOffset}:${r.endOffset}`);
        }
      }
    }
    return out;
  }

  /** Features of `features` not seen before. */
  fresh(features: readonly string[]): string[] {
    return features.filter((f) => !this.seen.has(f));
  }

  /** Blocks (ignoring buckets) covered at least once, and blocks known (covered or not) in the loaded code under test. */
  blocks(): { covered: number; known: number } {
    const b = new Set<string>();
    for (const f of this.seen) b.add(f.slice(0, f.lastIndexOf(':')));
    for (const k of this.known) b.has(k) || b.add(`?${k}`);
    let covered = 0;
    for (const k of b) if (!k.startsWith('?')) covered++;
    return { covered, known: b.size };
  }

  close(): void {
    this.post('Profiler.stopPreciseCoverage');
    this.session.disconnect();
  }
}
