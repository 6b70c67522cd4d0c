// The fuzzing loop, in a worker thread so the driver can stop it when an input hangs. It runs the
// target on mutated inputs in batches, reads coverage once per batch, and when a batch reached
// something new, reruns halves of it to find and keep the inputs that did.
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
      /** Coverage reads so far. */
      reads: number;
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
      /** Coverage reads so far. */
      reads: number;
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

/** Inputs per coverage read: small while new coverage keeps coming, up to 1024 once it is rare. */
const MIN_BATCH = 4;
const MAX_BATCH = 1024;
const SEED_BATCH = 16;

async function main(): Promise<void> {
  const cfg = workerData as WorkerConfig;
  // On before the target loads, so that a finding's stack (compiled by compile-js.ts) names the .ts lines.
  process.setSourceMapsEnabled(true);
  const target = (await import(cfg.targetPath)) as { fuzz(data: Uint8Array): void; differential?: DifferentialSide };
  const differential = target.differential;
  // Errors made and caught inside the code under test (a refused value is a PackError; args-json-cuda makes
  // eight an input) each cost a stack capture: about half of such a target's time. Inputs run without stack
  // traces; one that throws out of the target runs again with them, for its report.
  const STACK_FRAMES = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
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

  /** Running averages of an input's and a coverage read's time, to choose how to search a batch. */
  let inputMs = 1;
  let readMs = 5;
  const read = (): string[] => {
    const t0 = performance.now();
    const features = coverage.take();
    readMs += (performance.now() - t0 - readMs) / 16;
    return features;
  };

  /** A throw out of the target, run again with stack traces on for the report (stackless, it is the same error). */
  const reportCrash = (input: Uint8Array, first: unknown): void => {
    let error = first;
    let again = '';
    Error.stackTraceLimit = STACK_FRAMES;
    try {
      target.fuzz(input);
      again = '\n(it did not throw when run again, with stack traces on)';
    } catch (e) {
      error = e;
    } finally {
      Error.stackTraceLimit = 0;
    }
    const message = (error instanceof Error ? (error.stack ?? error.message) : String(error)) + again;
    // One report per distinct failure: the message's first line and the top frame.
    const lines = message.split('\n');
    const signature = `${lines[0].slice(0, 120)}|${lines.find((l) => l.trim().startsWith('at '))?.trim() ?? ''}`;
    if (crashSignatures.has(signature)) return;
    crashSignatures.add(signature);
    parentPort!.postMessage({ kind: 'finding', what: 'crash', input, message } satisfies WorkerMessage);
  };

  const runOne = (input: Uint8Array): void => {
    current.set(input.subarray(0, current.length));
    Atomics.store(beat, 1, Math.min(input.length, current.length));
    Atomics.add(beat, 0, 1);
    const t0 = performance.now();
    let thrown: { error: unknown } | undefined;
    try {
      target.fuzz(input);
    } catch (e) {
      thrown = { error: e };
    }
    const ms = performance.now() - t0;
    inputMs += (ms - inputMs) / 64;
    if (thrown) reportCrash(input, thrown.error);
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
  /** Keeps an input if the features it reached alone (read just after running it) include new ones. */
  const keepIf = (input: Uint8Array, reached: readonly string[]): void => {
    const fresh = coverage.fresh(reached);
    if (!fresh.length) return;
    for (const f of fresh) coverage.seen.add(f);
    corpus.push(input);
    newInputs.push(input);
  };
  const keepIfNew = (input: Uint8Array): void => {
    runOne(input);
    keepIf(input, read());
  };

  /**
   * Keeps the inputs of `inputs` that reach features of `wanted` alone. By halving: each half that reaches
   * some is searched further, one coverage read a half, so one input among n costs log2(n) reads and ~n
   * inputs run again. Or one input at a time, stopping once `wanted` is seen: ~n/2 reads and ~n/2 inputs.
   * Whichever the running averages say is cheaper (a read is ~5-10 ms, V8 reporting every function run:
   * more than a readers-ptx input, less than an opencl-c one that runs to the macro-expansion budget).
   */
  const attribute = (inputs: readonly Uint8Array[], wanted: readonly string[]): void => {
    const unseen = wanted.filter((f) => !coverage.seen.has(f));
    if (!unseen.length) return;
    if (inputs.length === 1) {
      keepIfNew(inputs[0]);
      return;
    }
    const n = inputs.length;
    if (readMs * (n / 2 - Math.log2(n)) < (inputMs * n) / 2) {
      for (const input of inputs) {
        if (unseen.every((f) => coverage.seen.has(f))) return;
        keepIfNew(input);
      }
      return;
    }
    const half = inputs.length >> 1;
    const first = inputs.slice(0, half);
    for (const input of first) runOne(input);
    const reached = read();
    if (half === 1) keepIf(first[0], reached);
    else {
      const inFirst = new Set(reached);
      attribute(
        first,
        unseen.filter((f) => inFirst.has(f)),
      );
    }
    attribute(inputs.slice(half), unseen);
  };

  /** After a batch has run: whether it reached something new (its inputs that did are kept). */
  const settle = (batch: readonly Uint8Array[]): boolean => {
    const reached = read();
    const fresh = coverage.fresh(reached);
    if (!fresh.length) return false;
    if (batch.length === 1) keepIf(batch[0], reached);
    else attribute(batch, fresh);
    // What no input reaches alone (code that runs only in a state an earlier input left, a cache's miss
    // path) is seen from now on: else it is fresh again in every batch, and every batch is searched again.
    for (const f of fresh) coverage.seen.add(f);
    return true;
  };

  coverage.take();
  // The seeds (fixtures, regressions, the corpus of earlier runs: hundreds) in batches too, one read a batch.
  for (let i = 0; i < cfg.seeds.length; i += SEED_BATCH) {
    const batch = cfg.seeds.slice(i, i + SEED_BATCH).map((s) => s.subarray(0, cfg.maxLen));
    for (const input of batch) runOne(input);
    settle(batch);
  }
  if (!corpus.length) corpus.push(new Uint8Array());
  const deadline = performance.now() + cfg.seconds * 1000;
  let lastStats = performance.now();
  let batchSize = MIN_BATCH;
  while (runs < cfg.runs && performance.now() < deadline) {
    const batch: Uint8Array[] = [];
    // The time and run limits hold inside a batch too: 1,024 inputs of a slow target can take a minute.
    for (let k = 0; k < batchSize && runs < cfg.runs && performance.now() < deadline; k++) {
      const input = mutate(corpus[rng.below(corpus.length)], rng, corpus, cfg.dict, cfg.maxLen);
      batch.push(input);
      runOne(input);
    }
    if (settle(batch)) batchSize = Math.max(MIN_BATCH, batchSize >> 1);
    else batchSize = Math.min(MAX_BATCH, batchSize * 2);
    if (performance.now() - lastStats > 2000) {
      lastStats = performance.now();
      parentPort!.postMessage({
        kind: 'stats',
        runs,
        corpus: corpus.length,
        features: coverage.seen.size,
        blocks: coverage.blocks(),
        reads: coverage.reads,
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
    reads: coverage.reads,
    newInputs,
    ...oracleStats(),
  } satisfies WorkerMessage);
  coverage.close();
}

void main();
