// One child of bench/lower-targets.ts: the target part of `lower()` alone, the frontend's output held fixed.
// Plain JavaScript run by node (or by valgrind's callgrind around node) against one build's dist/, so the same
// child times main's build and this one.
//   node bench/lower-targets-child.mjs <dist> <jobs.json> <targets, comma-separated> <runs> <warm> [check]
// Per target and file it compiles the module once (as src/lower.ts's plan() does: the target's predefines and
// layout), then times what lower() does after the frontend for `--format json` streamed (its lowerKernelwise: the
// checking pass, the kept plans or a second lowering pass, every JSON piece made). With `check` it first compares the
// pieces joined against lower()'s own output on each file, so the bench times what lower() runs.
// Prints one JSON line: per target the median CPU ms per file, and the process's peak RSS.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dist, jobsPath, targetsArg, runsArg, warmArg, check] = process.argv.slice(2);
const load = (p) => import(join(dist, p));
const { compileOpenCL } = await load('frontend/opencl-c/index.js');
const { targetNamed } = await load('targets/index.js');
const { SourceFile } = await load('diagnostics/source.js');
const { DiagnosticBag } = await load('diagnostics/diagnostic.js');
const { KEPT_SLOTS, keptIfSmall, kernelSeq } = await load('abi/stream-plan.js');
const { lower } = await load('lower.js');

const host = {
  readFile: (p) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
};
const jobs = JSON.parse(readFileSync(jobsPath, 'utf8')).map((j) => ({ ...j, text: readFileSync(j.path, 'utf8') }));
const targets = targetsArg.split(',');
const runs = Number(runsArg);
const warm = Number(warmArg);

/** The module of one file for one target, and the options lower() would pass on. */
function compiled(targetName, job) {
  const options = { ...job, text: undefined, target: targetName, format: 'json', chunked: true, streamed: true };
  const target = targetNamed(targetName);
  const driver = target
    .predefines(options)
    .map(([define, value]) => (value === null ? { undefine: define } : { define, value }));
  const fe = compileOpenCL(new SourceFile(job.path, job.text), host, {
    std: job.std,
    layout: target.layout(options),
    includeDirs: job.includeDirs,
    commandLine: [...driver, ...job.commandLine],
  });
  if (!fe.module || fe.diagnostics.errors) return undefined;
  let params = 0;
  for (const f of fe.module.functions) if (f.isKernel) params += f.params.length;
  return { target, module: fe.module, options, params };
}

/** What lower() does after the frontend (its lowerKernelwise for JSON); the JSON's length, or -1 if refused. */
function targetPart(c, collect) {
  const bag = new DiagnosticBag();
  const kw = c.target.kernelwise.lower(c.module, c.options, bag);
  if (!kw) return -1;
  const kept = kw.quiet ? undefined : keptIfSmall(kw.kernels(bag), KEPT_SLOTS, c.params);
  if (bag.errors) return -1;
  const kernels = kept ?? kernelSeq(kw.count, () => kw.kernels(kw.quiet ? bag : new DiagnosticBag()));
  const plan = { ...kw.head, kernels };
  let n = 0;
  for (const p of kw.pieces(plan, 'json', { module: c.module, options: c.options })) {
    n += p.length;
    collect?.push(p);
  }
  return n;
}

const work = [];
for (const t of targets)
  for (const job of jobs) {
    const c = compiled(t, job);
    if (c && targetPart(c) >= 0) work.push({ t, job, c });
  }
if (check)
  for (const { t, job, c } of work) {
    const got = [];
    targetPart(c, got);
    const r = lower(job.path, job.text, host, { ...c.options });
    const want = [...r.pieces].join('');
    if (got.join('') !== want) throw new Error(`${t} ${job.path}: the target part differs from lower()'s output`);
  }
for (let i = 0; i < warm; i++) for (const w of work) targetPart(w.c);
const out = {};
for (const t of targets) {
  const cpu = [];
  for (const w of work) {
    if (w.t !== t) continue;
    const ts = [];
    for (let i = 0; i < runs; i++) {
      const c0 = process.cpuUsage();
      targetPart(w.c);
      const d = process.cpuUsage(c0);
      ts.push((d.user + d.system) / 1000);
    }
    ts.sort((a, b) => a - b);
    cpu.push(ts[ts.length >> 1]);
  }
  out[t] = cpu;
}
console.log(JSON.stringify({ out, rss: process.resourceUsage().maxRSS / 1024 }));
