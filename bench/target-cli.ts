// Every target as a user runs it: whole `kernarg lower <file> --target T` calls on the generated
// 4,000-kernel file (bench/target-source.ts), with the target's default format (table) and with
// --format json, written to /dev/null. Each call's own CPU time (user + system, Node's start-up
// and JIT threads included) is read from inside the child at exit; rounds alternate the targets
// and formats so a busy machine slows all alike. Prints the median per target and format, its
// ratio to the fastest target in the same format, and the child's peak RSS.
// Run: npm run bench -- targets-cli   (KERNELS=4000, REPS=5)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { targetScalingSource } from './target-source.js';

const KERNELS = Number(process.env.KERNELS ?? 4000);
const REPS = Number(process.env.REPS ?? 5);
const TARGETS = ['opencl', 'vulkan', 'amdhsa', 'amd-cl2', 'r600', 'llvm'];
const FORMATS = ['table', 'json'];
const dir = mkdtempSync(join(tmpdir(), 'kernarg-targets-'));
const file = join(dir, `k${KERNELS}.cl`);
writeFileSync(file, targetScalingSource(KERNELS));
const report = join(dir, 'usage.json');
// Preloaded into the child: writes its CPU time and peak RSS when it exits.
const probe = join(dir, 'usage.mjs');
writeFileSync(
  probe,
  `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { const c = process.cpuUsage(); writeFileSync(${JSON.stringify(report)}, JSON.stringify({ cpuMs: (c.user + c.system) / 1000, rssMiB: process.resourceUsage().maxRSS / 1024 })); });\n`,
);
const bin = fileURLToPath(new URL('../bin/kernarg.js', import.meta.url));

const cpu = new Map<string, number[]>();
let peak = 0;
for (let r = 0; r < REPS; r++) {
  for (const format of FORMATS) {
    for (const t of TARGETS) {
      const args = [
        '--import',
        probe,
        bin,
        'lower',
        file,
        '--target',
        t,
        ...(format === 'table' ? [] : ['--format', format]),
        '-o',
        '/dev/null',
      ];
      const c = spawnSync(process.execPath, args, { encoding: 'utf8' });
      if (c.status !== 0) throw new Error(`${t} ${format}: ${c.stderr}`);
      const u = JSON.parse(readFileSync(report, 'utf8')) as { cpuMs: number; rssMiB: number };
      const key = `${t} ${format}`;
      cpu.set(key, [...(cpu.get(key) ?? []), u.cpuMs]);
      peak = Math.max(peak, u.rssMiB);
    }
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `kernarg lower <${KERNELS} kernels> --target T -o /dev/null: CPU ms per call (median of ${REPS} alternating rounds), ratio to the fastest target`,
);
console.log(
  ['target'.padEnd(8), ...FORMATS.flatMap((f) => [`${f} ms`.padStart(10), `×fastest`.padStart(9)])].join(' '),
);
const fastest = FORMATS.map((f) => Math.min(...TARGETS.map((t) => median(cpu.get(`${t} ${f}`)!))));
for (const t of TARGETS) {
  console.log(
    [
      t.padEnd(8),
      ...FORMATS.flatMap((f, i) => {
        const m = median(cpu.get(`${t} ${f}`)!);
        return [m.toFixed(0).padStart(10), (m / fastest[i]).toFixed(2).padStart(9)];
      }),
    ].join(' '),
  );
}
console.log(`peak RSS of a call ${peak.toFixed(0)} MiB`);
