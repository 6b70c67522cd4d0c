// The fuzzing loop, in a worker thread so the driver can stop it when an input hangs. It runs the
// target on mutated inputs in batches, reads coverage once per batch, and when a batch reached
// something new, reruns its inputs one by one to keep those that did.
import { parentPort, workerData } from 'node:worker_threads';
import { Coverage } from './coverage.js';
import { Rng, mutate } from './mutate.js';

export interface WorkerConfig {
  readonly targetPath: string;
  readonly seeds: readonly Uint8Array[];
  readonly dict: readonly Uint8Array[];
  readonly runs: number;
  readonly seconds: number;
  readonly maxLen: number;
  readonly seed: number;
  /** [0] heartbeat, [1] length of the input being run; its bytes from offset 8. */
  readonly shared: SharedArrayBuffer;
  readonly slowMs: number;
}

export type WorkerMessage =
  | {
      kind: 'stats';
      runs: number;
      corpus: number;
      features: number;
      blocks: { covered: number; known: number };
      newInputs: Uint8Array[];
      oracle?: OracleStats;
    }
  | { kind: 'finding'; what: 'crash' | 'slow' | 'differs'; input: Uint8Array; message: string; ms?: number }
  | {
      kind: 'done';
      runs: number;
      corpus: number;
      features: number;
      blocks: { covered: number; known: number };
      newInputs: Uint8Array[];
      oracle?: OracleStats;
    };

/**
 * A differential target's oracle side: `fuzz` runs kernarg on an input and queues it; `flush` runs
 * the reference tool on everything queued (one call for many inputs) and returns each input it
 * disagrees with. The worker flushes outside an input's timing, when `batch` inputs wait and at the end.
 */
export interface DifferentialSide {
  readonly batch: number;
  pending(): number;
  /** `all` false: only what makes a full batch (the rest waits); true: everything queued. */
  flush(progress?: () => void, all?: boolean): { input: Uint8Array; message: string }[];
  stats(): OracleStats | undefined;
}

/** What a differential target's oracle has compared (target-defined counts, summed by the driver). */
export type OracleStats = Record<string, number>;

/** Inputs per coverage read: small while new coverage keeps coming, up to 128 once it is rare. */
const MIN_BATCH = 4;
const MAX_BATCH = 1024;

async function main(): Promise<void> {
  const cfg = workerData as WorkerConfig;
  const target = (await import(cfg.targetPath)) as { fuzz(data: Uint8Array): void; differential?: DifferentialSide };
  const differential = target.differential;
  const beat = new Int32Array(cfg.shared, 0, 2);
  const current = new Uint8Array(cfg.shared, 8);
  const coverage = new Coverage((url) => url.includes('/src/'));
  const rng = new Rng(cfg.seed);
  const corpus: Uint8Array[] = [];
  let newInputs: Uint8Array[] = [];
  let runs = 0;
  const crashSignatures = new Set<string>();
  const oracleStats = (): { oracle?: OracleStats } => {
    const o = differential?.stats();
    return o ? { oracle: { ...o } } : {};
  };

  const runOne = (input: Uint8Array): void => {
    current.set(input.subarray(0, current.length));
    Atomics.store(beat, 1, Math.min(input.length, current.length));
    Atomics.add(beat, 0, 1);
    const t0 = performance.now();
    try {
      target.fuzz(input);
    } catch (e) {
      const message = e instanceof Error ? (e.stack ?? e.message) : String(e);
      // One report per distinct failure: the message's first line and the top frame.
      const lines = message.split('\n');
      const signature = `${lines[0].slice(0, 120)}|${lines.find((l) => l.trim().startsWith('at '))?.trim() ?? ''}`;
      if (!crashSignatures.has(signature)) {
        crashSignatures.add(signature);
        parentPort!.postMessage({ kind: 'finding', what: 'crash', input, message } satisfies WorkerMessage);
      }
    }
    const ms = performance.now() - t0;
    if (ms > cfg.slowMs)
      parentPort!.postMessage({
        kind: 'finding',
        what: 'slow',
        input,
        message: `took ${ms.toFixed(0)} ms`,
        ms,
      } satisfies WorkerMessage);
    runs++;
    if (differential && differential.pending() >= differential.batch) flush(false);
  };
  /** Runs the oracle on the queued inputs; its disagreements are findings of the inputs they name. */
  const flush = (all: boolean): void => {
    if (!differential) return;
    let found: { input: Uint8Array; message: string }[];
    try {
      found = differential.flush(() => Atomics.add(beat, 0, 1), all);
    } catch (e) {
      const message = e instanceof Error ? (e.stack ?? e.message) : String(e);
      parentPort!.postMessage({
        kind: 'finding',
        what: 'crash',
        input: new Uint8Array(),
        message: `the oracle failed: ${message}`,
      } satisfies WorkerMessage);
      return;
    }
    for (const f of found)
      parentPort!.postMessage({
        kind: 'finding',
        what: 'differs',
        input: f.input,
        message: f.message,
      } satisfies WorkerMessage);
  };
  const keepIfNew = (input: Uint8Array): boolean => {
    runOne(input);
    const fresh = coverage.fresh(coverage.take());
    if (!fresh.length) return false;
    for (const f of fresh) coverage.seen.add(f);
    corpus.push(input);
    newInputs.push(input);
    return true;
  };

  coverage.take();
  for (const s of cfg.seeds) keepIfNew(s.subarray(0, cfg.maxLen));
  if (!corpus.length) corpus.push(new Uint8Array());
  const deadline = performance.now() + cfg.seconds * 1000;
  let lastStats = performance.now();
  let batchSize = MIN_BATCH;
  while (runs < cfg.runs && performance.now() < deadline) {
    const batch: Uint8Array[] = [];
    for (let k = 0; k < batchSize; k++) {
      const input = mutate(corpus[rng.below(corpus.length)], rng, corpus, cfg.dict, cfg.maxLen);
      batch.push(input);
      runOne(input);
    }
    const fresh = new Set(coverage.fresh(coverage.take()));
    if (fresh.size) {
      // Rerun the batch one input at a time until what was new is accounted for.
      for (const input of batch) {
        if (![...fresh].some((f) => !coverage.seen.has(f))) break;
        keepIfNew(input);
      }
      batchSize = Math.max(MIN_BATCH, batchSize >> 1);
    } else batchSize = Math.min(MAX_BATCH, batchSize * 2);
    if (performance.now() - lastStats > 2000) {
      lastStats = performance.now();
      parentPort!.postMessage({
        kind: 'stats',
        runs,
        corpus: corpus.length,
        features: coverage.seen.size,
        blocks: coverage.blocks(),
        newInputs,
        ...oracleStats(),
      } satisfies WorkerMessage);
      newInputs = [];
    }
  }
  flush(true);
  parentPort!.postMessage({
    kind: 'done',
    runs,
    corpus: corpus.length,
    features: coverage.seen.size,
    blocks: coverage.blocks(),
    newInputs,
    ...oracleStats(),
  } satisfies WorkerMessage);
  coverage.close();
}

void main();
