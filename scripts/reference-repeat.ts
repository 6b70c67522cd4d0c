// Runs the JS reference's GEMM against plain loops (test/support/reference-gemm-check.ts) again and again, each round
// in a fresh Node process (the engine's optimizing compiler starts cold in each), PROCS processes (default 100), JOBS
// at a time (default 2), ROUNDS rounds over the cases in each (default 2), with BUSY threads spinning beside them
// (default 0) to load the machine as a full test run does. Prints every run that differs and the count. The GEMM
// tests' rare failure was the reference's own (one product left out of one sum, V8 11.3's doing under load):
// docs/testing.md has the figures, tinytc-reference-blas.ts what changed.
//
//   node --import tsx scripts/reference-repeat.ts            PROCS=300 JOBS=3 BUSY=2 node --import tsx scripts/...
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

async function child(): Promise<void> {
  const { REFERENCE_GEMM_CASES, referenceAgainstPlain } = await import('../test/support/reference-gemm-check.js');
  for (let round = 0; round < env('ROUNDS', 2); round++)
    for (const [name, c] of REFERENCE_GEMM_CASES) {
      const { elements, differing } = referenceAgainstPlain(c);
      if (differing.length)
        console.log(`round ${round}, ${name}: ${differing.length} of ${elements} differ (${differing.slice(0, 4)})`);
    }
}

async function parent(): Promise<void> {
  const procs = env('PROCS', 100);
  const jobs = Math.max(1, env('JOBS', 2));
  const busy = Array.from({ length: env('BUSY', 0) }, () =>
    new Worker('for (;;) {}', { eval: true }).on('error', () => {}),
  );
  const self = fileURLToPath(import.meta.url);
  let next = 0;
  let bad = 0;
  const t0 = Date.now();
  const one = (i: number) =>
    new Promise<void>((done) => {
      const p = spawn(process.execPath, [...process.execArgv, self, '--child'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      p.stdout.on('data', (d: Buffer) => (out += d));
      p.on('close', (code) => {
        if (out || code !== 0) {
          bad++;
          console.log(`process ${i} (exit ${code}):\n${out.trimEnd()}`);
        }
        done();
      });
    });
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      while (next < procs) await one(next++);
    }),
  );
  for (const w of busy) await w.terminate();
  const s = ((Date.now() - t0) / 1000).toFixed(0);
  console.log(
    `${procs} processes (${jobs} at a time, ${busy.length} busy threads, ${availableParallelism()} cores, ${s} s): ${bad} with a difference`,
  );
  process.exitCode = bad ? 1 : 0;
}

await (process.argv.includes('--child') ? child() : parent());
