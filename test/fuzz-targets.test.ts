// The fuzz targets in npm test: every regression input (each once a crash or a hang) replays
// cleanly, and a short coverage-guided run of every target finds nothing. `npm run fuzz` is the
// long run. The differential targets (a reference tool or device per batch) have their own file,
// fuzz-differential.test.ts, which requires their tools.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { TARGETS_DIR, type TargetModule, regressionInputs, runFuzz, targetNames } from './fuzz/driver.js';

/** The targets that need no reference tool or device. */
async function selfContained(): Promise<string[]> {
  const out: string[] = [];
  for (const name of targetNames()) {
    const mod = (await import(pathToFileURL(join(TARGETS_DIR, `${name}.ts`)).href)) as TargetModule;
    if (!mod.differential) out.push(name);
  }
  return out;
}

test('every fuzz target replays its regression inputs without a failure', async () => {
  const names = await selfContained();
  for (const frontend of ['opencl-c', 'tinytc', 'tinytc-codegen'])
    assert.ok(names.includes(frontend), `fuzz target ${frontend}`);
  for (const name of names) {
    const mod = (await import(pathToFileURL(join(TARGETS_DIR, `${name}.ts`)).href)) as TargetModule;
    const inputs = regressionInputs(name);
    if (['opencl-c', 'tinytc', 'tinytc-codegen'].includes(name))
      assert.ok(inputs.length > 0, `${name} has regression inputs`);
    for (const { file, data } of inputs) {
      const t0 = performance.now();
      assert.doesNotThrow(() => mod.fuzz(data), file);
      assert.ok(performance.now() - t0 < 20_000, `${file} is slow`);
    }
  }
});

test('a short coverage-guided run of every target finds no crash, slow input or hang', async () => {
  const findingsDir = join(import.meta.dirname, '.tmp', 'fuzz-findings');
  rmSync(findingsDir, { recursive: true, force: true });
  const seconds = Number(process.env.KERNARG_FUZZ_SECONDS ?? 4);
  // slowMs is wall time: a bounded input (the 1M-token macro-expansion budget costs ~0.75 s of CPU) took
  // 10-13 s on a 2-core machine at load ~20, so "slow" here means pathological (30 s), not merely costly.
  const summaries = await runFuzz({
    targets: await selfContained(),
    seconds,
    seed: 17,
    findingsDir,
    slowMs: 30_000,
    hangMs: 90_000,
  });
  for (const s of summaries) {
    assert.ok(s.runs > 0 && s.blocks > 0, `${s.target} ran (${s.runs} inputs, ${s.blocks} blocks)`);
    assert.deepEqual(
      s.findings.map((f) => `${f.what}: ${f.message.split('\n')[0]} (${f.file})`),
      [],
      s.target,
    );
  }
});
