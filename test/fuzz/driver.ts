// Discovers the fuzz targets (one module per target in test/fuzz/targets/, exporting
// `fuzz(data: Uint8Array): void`), seeds each from the fixtures, its dictionary and the corpus kept
// from earlier runs, runs it in a worker, and records every crash, slow input and hang.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { compiledTree } from './compile-js.js';
import { parseDictionary } from './mutate.js';
import type { DifferentialSide, OracleStats, WorkerConfig, WorkerMessage } from './worker.js';

const HERE = dirname(fileURLToPath(import.meta.url));
export const TARGETS_DIR = join(HERE, 'targets');
const ROOT = join(HERE, '..', '..');
/** Inputs that once failed, kept as regression fixtures (committed). */
export const REGRESSIONS_DIR = join(HERE, 'regressions');
const FIXTURES_DIR = join(HERE, '..', 'fixtures');

export interface TargetModule {
  fuzz(data: Uint8Array): void;
  /** File extensions of test/fixtures inputs that seed this target. */
  readonly seedExtensions?: readonly string[];
  /** A differential target's oracle (a reference tool or device run per batch of inputs). */
  readonly differential?: DifferentialSide;
}

export interface Finding {
  readonly target: string;
  /** differs: a differential target's oracle disagrees with kernarg on the input. */
  readonly what: 'crash' | 'slow' | 'hang' | 'worker-died' | 'differs';
  readonly message: string;
  readonly file: string;
}

export interface TargetSummary {
  readonly target: string;
  readonly runs: number;
  readonly corpus: number;
  readonly features: number;
  /** Blocks of src/ covered, of those V8 reported in the loaded code (a block reported only when its function was compiled). */
  readonly blocks: number;
  readonly knownBlocks: number;
  readonly seconds: number;
  /** Coverage reads (V8's precise coverage, ~5-10 ms each), over all of the target's workers. */
  readonly coverageReads: number;
  readonly findings: readonly Finding[];
  /** A differential target's oracle counts (programs, kernels, slots compared, tool calls...), summed over its workers. */
  readonly oracle?: OracleStats;
}

export interface FuzzOptions {
  readonly targets?: readonly string[];
  /** Where the target modules are (default test/fuzz/targets; inside test/ or src/, which are compiled). */
  readonly targetsDir?: string;
  readonly seconds: number;
  readonly runs?: number;
  readonly maxLen?: number;
  readonly seed?: number;
  /** Where the corpus is kept between runs (not committed); none: start from the seeds each time. */
  readonly corpusDir?: string;
  /** Where findings are written. */
  readonly findingsDir: string;
  /** An input slower than this is a finding; one that keeps a worker busy for hangMs is a hang. */
  readonly slowMs?: number;
  readonly hangMs?: number;
  readonly log?: (line: string) => void;
  /** Run the worker under tsx instead of on the compiled JavaScript (slower; for comparison). */
  readonly tsx?: boolean;
}

export function targetNames(dir = TARGETS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
}

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && keep(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

export function regressionInputs(target: string): { file: string; data: Uint8Array }[] {
  return filesUnder(join(REGRESSIONS_DIR, target), () => true).map((file) => ({ file, data: readFileSync(file) }));
}

async function seedsFor(target: string, dir: string, corpusDir: string | undefined): Promise<Uint8Array[]> {
  const mod = (await import(pathToFileURL(join(dir, `${target}.ts`)).href)) as TargetModule;
  const exts = mod.seedExtensions ?? [];
  const seeds: Uint8Array[] = filesUnder(FIXTURES_DIR, (n) => exts.some((e) => n.endsWith(e))).map((f) =>
    readFileSync(f),
  );
  seeds.push(...regressionInputs(target).map((r) => r.data));
  if (corpusDir) seeds.push(...filesUnder(join(corpusDir, target), () => true).map((f) => readFileSync(f)));
  return seeds;
}

// Under tsx (`tsx: true`), a worker registers tsx's loader (a worker thread does not inherit it in Node 20),
// then loads the TypeScript loop; otherwise it loads the loop compiled by compile-js.ts.
const TSX_BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(new URL('./worker.ts', import.meta.url).href)}); })`;
const compiledBoot = (tree: string) =>
  `import(${JSON.stringify(pathToFileURL(join(tree, 'test', 'fuzz', 'worker.js')).href)})`;

const sha = (d: Uint8Array) => createHash('sha1').update(d).digest('hex').slice(0, 16);

/** Fuzzes one target for the given time (restarting its worker after a hang or a death). */
async function fuzzTarget(target: string, o: FuzzOptions): Promise<TargetSummary> {
  const log = o.log ?? (() => {});
  const maxLen = o.maxLen ?? 4096;
  const dir = o.targetsDir ?? TARGETS_DIR;
  const dictFile = join(dir, `${target}.dict`);
  const dict = existsSync(dictFile) ? parseDictionary(readFileSync(dictFile, 'utf8')) : [];
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const record = (what: Finding['what'], input: Uint8Array, message: string) => {
    const name = `${what}-${sha(input)}`;
    if (seen.has(name)) return;
    seen.add(name);
    const dir = join(o.findingsDir, target);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, name);
    writeFileSync(file, input);
    writeFileSync(`${file}.txt`, message);
    findings.push({ target, what, message, file });
    log(`${target}: ${what}: ${message.split('\n')[0]} (${file})`);
  };
  const keep = (inputs: readonly Uint8Array[]) => {
    if (!o.corpusDir) return;
    const dir = join(o.corpusDir, target);
    mkdirSync(dir, { recursive: true });
    for (const i of inputs) writeFileSync(join(dir, sha(i)), i);
  };
  const tree = o.tsx ? undefined : compiledTree();
  const start = performance.now();
  const deadline = start + o.seconds * 1000;
  let runs = 0;
  let reads = 0;
  let last = { corpus: 0, features: 0, blocks: { covered: 0, known: 0 } };
  let seeds = await seedsFor(target, dir, o.corpusDir);
  let round = 0;
  let oracle: OracleStats | undefined;
  while (performance.now() < deadline && runs < (o.runs ?? Infinity)) {
    const shared = new SharedArrayBuffer(8 + maxLen);
    const beat = new Int32Array(shared, 0, 2);
    const cfg: WorkerConfig = {
      targetPath: pathToFileURL(tree ? join(tree, relative(ROOT, dir), `${target}.js`) : join(dir, `${target}.ts`))
        .href,
      seeds,
      dict,
      maxLen,
      shared,
      runs: (o.runs ?? Infinity) - runs,
      seconds: (deadline - performance.now()) / 1000,
      seed: (o.seed ?? Date.now()) + round++,
      slowMs: o.slowMs ?? 2000,
    };
    const worker = new Worker(tree ? compiledBoot(tree) : TSX_BOOT, {
      eval: true,
      // Not the parent's `--import tsx` (the compiled loop needs no loader, the tsx boot registers its own);
      // `node --cpu-prof` passes on, to profile the worker too.
      execArgv: process.execArgv.filter((a) => a.startsWith('--cpu-prof')),
      workerData: cfg,
      resourceLimits: { maxOldGenerationSizeMb: 2048 },
    });
    const kept: Uint8Array[] = [];
    let workerRuns = 0;
    let workerReads = 0;
    let workerOracle: OracleStats | undefined;
    const ended = await new Promise<'done' | 'hang' | 'died'>((resolve) => {
      let lastBeat = -1;
      let lastChange = performance.now();
      const watch = setInterval(() => {
        const b = Atomics.load(beat, 0);
        if (b !== lastBeat) {
          lastBeat = b;
          lastChange = performance.now();
        } else if (performance.now() - lastChange > (o.hangMs ?? 20000)) {
          const len = Atomics.load(beat, 1);
          record('hang', new Uint8Array(shared, 8, len).slice(), `no progress for ${o.hangMs ?? 20000} ms`);
          clearInterval(watch);
          void worker.terminate();
          resolve('hang');
        }
      }, 250);
      worker.on('message', (m: WorkerMessage) => {
        if (m.kind === 'finding') record(m.what, m.input, m.message);
        else {
          workerRuns = m.runs;
          workerReads = m.reads;
          workerOracle = m.oracle ?? workerOracle;
          last = m;
          kept.push(...m.newInputs);
          keep(m.newInputs);
          if (m.kind === 'stats')
            log(
              `${target}: ${runs + m.runs} runs, corpus ${m.corpus}, ${m.blocks.covered} of ${m.blocks.known} blocks`,
            );
          else {
            clearInterval(watch);
            resolve('done');
          }
        }
      });
      worker.on('error', (e) => {
        const len = Atomics.load(beat, 1);
        record(
          'worker-died',
          new Uint8Array(shared, 8, len).slice(),
          e instanceof Error ? (e.stack ?? e.message) : String(e),
        );
        clearInterval(watch);
        resolve('died');
      });
    });
    // The heartbeat counts inputs begun (and a differential oracle's tool runs): the count of a worker that died.
    runs += ended === 'done' ? workerRuns : Math.max(workerRuns, Atomics.load(beat, 0));
    reads += workerReads;
    if (workerOracle) {
      const sum: OracleStats = { ...(oracle ?? {}) };
      for (const [k, v] of Object.entries(workerOracle)) sum[k] = (sum[k] ?? 0) + v;
      oracle = sum;
    }
    seeds = [...seeds, ...kept];
    if (ended === 'done') break;
  }
  return {
    target,
    runs,
    corpus: last.corpus,
    features: last.features,
    blocks: last.blocks.covered,
    knownBlocks: last.blocks.known,
    seconds: (performance.now() - start) / 1000,
    coverageReads: reads,
    findings,
    ...(oracle ? { oracle } : {}),
  };
}

export async function runFuzz(o: FuzzOptions): Promise<TargetSummary[]> {
  const have = targetNames(o.targetsDir);
  const names = o.targets?.length ? [...o.targets] : have;
  for (const n of names) if (!have.includes(n)) throw new Error(`no fuzz target '${n}' (have: ${have.join(', ')})`);
  const under = relative(ROOT, o.targetsDir ?? TARGETS_DIR).split(sep)[0];
  if (!o.tsx && under !== 'test' && under !== 'src')
    throw new Error(`fuzz targets outside test/ and src/ are not compiled: ${o.targetsDir}`);
  const out: TargetSummary[] = [];
  for (const n of names) out.push(await fuzzTarget(n, o));
  return out;
}
