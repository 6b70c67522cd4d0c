// Records the binaries the readers' tests read: AMDGPU code objects of test/readers/code-objects/
// kinds.cl by clang-16 (code object 4), clang-19 (5) and clang-22 (6) at -O0 with
// -cl-kernel-arg-info (kinds.<llvm>.co<N>.o), and zebins (test/readers/zebins/<case>.<device>.zebin):
// ocloc (IGC_EnableZEBinary=1, -cl-kernel-arg-info so `.ze_info` names the arguments) on the
// hand-written zebin oracle cases, for each device. ocloc takes seconds a file, so `npm test`
// reads these instead of running it; rerun this script when ocloc changes.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
for (const [llvm, co] of [
  [16, 4],
  [19, 5],
  [22, 6],
]) {
  const out = join(root, 'test/readers/code-objects', `kinds.${llvm}.co${co}.o`);
  execFileSync(`clang-${llvm}`, [
    '-cl-std=CL2.0',
    '-target',
    'amdgcn-amd-amdhsa',
    '-mcpu=gfx900',
    '-nogpulib',
    '-O0',
    '-cl-kernel-arg-info',
    `-mcode-object-version=${co}`,
    '-c',
    '-o',
    out,
    join(root, 'test/readers/code-objects/kinds.cl'),
  ]);
  console.log(out);
}
const cases = ['hand-pointers', 'hand-values', 'hand-images', 'hand-builtins'];
const devices = ['pvc', 'tgllp', 'dg2'];
for (const c of cases) {
  for (const device of devices) {
    // ocloc writes OCL_DRIVER_VERSION into its working directory: run it in a scratch one.
    const dir = mkdtempSync(join(tmpdir(), 'kernarg-zebin-record-'));
    try {
      try {
        execFileSync(
          'ocloc',
          [
            'compile',
            '-file',
            join(root, 'test/oracle/zebin-ocloc', `${c}.cl`),
            '-device',
            device,
            '-output_no_suffix',
            '-out_dir',
            join(dir, 'out'),
            '-options',
            '-cl-std=CL2.0 -cl-kernel-arg-info',
          ],
          { cwd: dir, env: { ...process.env, IGC_EnableZEBinary: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
        );
      } catch {
        // hand-values passes doubles, which TGL and DG2 refuse: no zebin to record there.
        console.log(`${c}.${device}: ocloc refuses it`);
        continue;
      }
      const bin = readdirSync(join(dir, 'out')).find((f) => !f.endsWith('.spv'));
      if (!bin) throw new Error(`ocloc wrote no binary for ${c} on ${device}`);
      copyFileSync(join(dir, 'out', bin), join(root, 'test/readers/zebins', `${c}.${device}.zebin`));
      console.log(`${c}.${device}.zebin`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
