// The CUDA host on a machine with NVIDIA's driver (no clang, no CUDA toolkit needed):
//   source scripts/gpu-env.sh; node --import tsx scripts/gpu-cuda-launch.ts     (OUT=<dir> keeps files)
// (gpu-env.sh unpacks Node as /tmp/node; the launch-overhead row needs dist/ built and a C compiler
// or .node/cuda-c-host, built anywhere with `cc -O2 -o .node/cuda-c-host bench/cuda-launch-host.c -ldl`.)
// Every step prints what it did; the end is a PASS/FAIL table and the exit status (0: all pass).
// 1. the driver, its devices, and whether cuFuncGetParamInfo (12.4+), ptxas and nvcc are there;
// 2. launch-kernels.ptx (made here from launch-kernels.cl by clang-16: --make-ptx) loaded by the
//    driver's JIT; every parameter's offset and size in kernarg's plans (lowered from the .cl, read
//    from the PTX) compared with cuFuncGetParamInfo;
// 3. `mixed` (a struct, a float4, two pointers, a char then a double) and `bank` (an .align 32
//    block after 13 bytes) launched in both forms (kernelParams, extra), results checked against JS;
// 4. the same PTX launched with the plan read from the PTX alone (untyped byte arrays), and through
//    `kernarg run --api cuda` (the CLI);
// 5. a real cubin made by the driver's own linker (cuLinkCreate/AddData/Complete from the PTX),
//    read by kernarg's cubin reader, compared with cuFuncGetParamInfo and launched (written to
//    $OUT/launch-kernels.cubin), the cubins committed under test/readers/cubins (ptxas and nvcc of
//    CUDA 13.0, sm_90), and one from ptxas where it is installed;
// 6. the launch-overhead row: bench/cuda-launch-overhead.ts beside its C host;
// 7. local (shared-memory) arguments in both conventions: local-kernels.ptx (clang's nvcl `.ptr
//    .shared` parameters and a static local array) and local-kernels.pocl.ptx (pocl's 32-bit offsets
//    into one extern array), launched with blocks of three alignments, results checked against JS
//    (the nvcl PTX loads because the host drops `.shared` from its `.ptr` parameters: ptx-for-jit.ts);
// 8. the plan placed for the device's architecture (ctx.sm) against cuFuncGetParamInfo for a
//    .param list with .align 32, 64 and 128 blocks.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { readPtx } from '../src/readers/ptx.js';
import { readCubin } from '../src/readers/cubin.js';
import { koffi } from '../src/runtime/ffi.js';
import { openCuda } from '../src/runtime/cuda/driver.js';
import { CudaContext, type CudaKernel, type CudaModule } from '../src/runtime/cuda/host.js';
import { listCudaDevices } from '../src/runtime/cuda/devices.js';
import type { CudaParamForm } from '../src/runtime/cuda/launch-options.js';
import type { CudaPlan } from '../src/targets/cuda/plan.js';
import { compileClToPtx } from '../src/cli/cuda-ptx-compile.js';
import { runCliWith, nodeIO } from '../src/cli/main.js';

const HERE = join(import.meta.dirname, 'gpu-cuda');
const CL = join(HERE, 'launch-kernels.cl');
const PTX = join(HERE, 'launch-kernels.ptx');
const LOCAL_CL = join(HERE, 'local-kernels.cl');
const LOCAL_PTX = join(HERE, 'local-kernels.ptx');
const LOCAL_POCL_PTX = join(HERE, 'local-kernels.pocl.ptx');

if (process.argv.includes('--make-ptx')) {
  for (const [cl, ptx] of [
    [CL, PTX],
    [LOCAL_CL, LOCAL_PTX],
  ]) {
    const r = compileClToPtx(cl, [{ kind: 'std', std: 'CL1.2' }]);
    if (!('ptx' in r)) throw new Error(`cannot make the PTX: ${'noCompiler' in r ? r.noCompiler : r.refused}`);
    writeFileSync(ptx, r.ptx);
    console.log(`wrote ${ptx} with ${r.clang}`);
  }
  process.exit(0);
}

const out = process.env.OUT;
if (out) mkdirSync(out, { recursive: true });
const rows: [string, 'PASS' | 'FAIL' | 'n/a', string][] = [];
const row = (step: string, ok: boolean | undefined, detail: string) => {
  rows.push([step, ok === undefined ? 'n/a' : ok ? 'PASS' : 'FAIL', detail]);
  console.log(`[${ok === undefined ? 'n/a' : ok ? 'PASS' : 'FAIL'}] ${step}: ${detail}`);
};
const attempt = (step: string, f: () => void) => {
  try {
    f();
  } catch (e) {
    row(step, false, `threw ${(e as Error).stack ?? String(e)}`);
  }
};

// 1. The driver.
let cu: ReturnType<typeof openCuda>;
try {
  cu = openCuda();
} catch (e) {
  console.log(`FAIL: ${(e as Error).message}`);
  process.exit(2);
}
const devices = listCudaDevices(cu);
console.log(
  `driver library ${cu.library}; cuFuncGetParamInfo ${cu.FuncGetParamInfo ? 'present' : 'absent (driver before 12.4)'}`,
);
for (const d of devices)
  console.log(
    `device ${d.ordinal}: ${d.name}, compute ` +
      `capability ${d.computeCapability}, ${(d.totalMemory / 2 ** 30).toFixed(1)} GiB, driver API ${d.driverVersion}`,
  );
const tool = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
const ptxas = tool('ptxas');
const nvcc = tool('nvcc');
console.log(
  `ptxas: ${ptxas || 'not installed'}; nvcc: ${nvcc || 'not installed'}; cc: ${tool('cc') || 'not installed'}`,
);

// 2. Plans and the driver's answers.
const ptxText = readFileSync(PTX, 'utf8');
const clText = readFileSync(CL, 'utf8');
const lowered = lower(CL, clText, memoryHost({}), { target: 'cuda', format: 'json' });
if (!lowered.plan)
  throw new Error(`kernarg cannot lower ${CL}: ${lowered.diagnostics.map((d) => d.message).join('; ')}`);
const clPlan = lowered.plan as CudaPlan;
const read = readPtx(new TextEncoder().encode(ptxText), PTX);
if (!read.plan) throw new Error(`kernarg cannot read ${PTX}: ${read.diagnostics.map((d) => d.message).join('; ')}`);
const ptxPlan = read.plan;
console.log(
  `PTX header: ${ptxText
    .split('\n')
    .filter((l) => /^\.(version|target|address_size)/.test(l))
    .join(' | ')}`,
);
const ctx = CudaContext.open(process.env.KERNARG_DEVICE);
console.log(`context on ${ctx.device.name}; limits ${JSON.stringify(ctx.limits)}`);
const module = ctx.module(ptxText, 'launch-kernels.ptx');

function compareWithDriver(label: string, m: CudaModule, plan: CudaPlan): void {
  for (const k of plan.kernels) {
    attempt(`${label} ${k.name} params`, () => {
      const kernel = m.kernel(k.name, plan, { strict: false });
      const driver = kernel.driverParams;
      const mine = k.args.map((a) => `${a.offset}+${a.size}`).join(' ');
      if (!driver) row(`${label} ${k.name} params`, undefined, `plan ${mine}; the driver has no cuFuncGetParamInfo`);
      else
        row(
          `${label} ${k.name} params`,
          kernel.driverDifferences.length === 0,
          kernel.driverDifferences.length
            ? kernel.driverDifferences.join('; ')
            : `all ${driver.length} offset+size equal: ${mine}`,
        );
      kernel.dispose();
    });
  }
}
compareWithDriver('cl plan vs cuFuncGetParamInfo:', module, clPlan);
compareWithDriver('ptx plan vs cuFuncGetParamInfo:', module, ptxPlan);

// 3. Launches with the typed plan, both forms.
const N = 256;
const f32 = Math.fround;
const inData = Int32Array.from({ length: N }, (_, i) => i * 3 - 100);
const mixedArgs = { c: -7, d: 0.25, v: [1.5, -2, 3.25, 1e6], s: { c: 65, d: 2.5, i: 40 } };
function mixedExpected(): Float32Array {
  const e = new Float32Array(8 * N);
  for (let i = 0; i < N; i++) {
    e.set(
      [
        inData[i] + mixedArgs.c,
        f32(mixedArgs.d * i),
        ...mixedArgs.v,
        mixedArgs.s.c,
        f32(mixedArgs.s.d + mixedArgs.s.i),
      ],
      8 * i,
    );
  }
  return e;
}
const bankA = Array.from({ length: 13 }, (_, i) => i + 1);
const bankB = Array.from({ length: 8 }, (_, i) => 100 * (i + 1));
const bankExpected = Int32Array.from({ length: 32 }, (_, i) => (i < 13 ? bankA[i] : 0) + (i < 8 ? bankB[i] : 0));
const firstDifference = (got: ArrayLike<number>, want: ArrayLike<number>) => {
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) return `element ${i}: got ${got[i]}, want ${want[i]}`;
  return undefined;
};

function launchChecked(
  label: string,
  kernel: CudaKernel,
  args: (outBuf: unknown, inBuf: unknown) => Record<string, unknown>,
  outLength: number,
  want: Int32Array | Float32Array,
  global: number,
  form: CudaParamForm,
): void {
  attempt(label, () => {
    const outHost = want instanceof Float32Array ? new Float32Array(outLength) : new Int32Array(outLength);
    const outBuf = ctx.buffer(outLength * 4);
    const inBuf = ctx.buffer(inData);
    const ms = kernel.launchAndWait({
      args: args(outBuf, inBuf),
      global: [global],
      local: [Math.min(global, 64)],
      form,
    });
    outBuf.read(outHost);
    const diff = firstDifference(outHost, want);
    row(label, diff === undefined, diff ?? `${outLength} values equal the JS reference (${ms.toFixed(3)} ms)`);
    outBuf.dispose();
    inBuf.dispose();
  });
}

for (const form of ['params', 'extra'] as const) {
  attempt(`cl plan launch (${form})`, () => {
    const mixed = module.kernel('mixed', clPlan);
    launchChecked(
      `mixed, cl plan, ${form}`,
      mixed,
      (o, i) => ({ out: o, in: i, ...mixedArgs }),
      8 * N,
      mixedExpected(),
      N,
      form,
    );
    const bank = module.kernel('bank', clPlan);
    launchChecked(
      `bank, cl plan, ${form}`,
      bank,
      (o) => ({ a: { b: bankA }, b: { x: bankB }, out: o }),
      32,
      bankExpected,
      32,
      form,
    );
    mixed.dispose();
    bank.dispose();
  });
}

// 4. The plan read from the PTX alone: byte arrays for the vector and the structs.
const bytesOf = (a: ArrayBufferView) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
function structBytes(): number[] {
  const b = new DataView(new ArrayBuffer(24));
  b.setInt8(0, mixedArgs.s.c);
  b.setFloat64(8, mixedArgs.s.d, true);
  b.setInt32(16, mixedArgs.s.i, true);
  return bytesOf(b);
}
attempt('mixed, ptx plan', () => {
  const mixed = module.kernel('mixed', ptxPlan);
  launchChecked(
    'mixed, ptx plan (byte arrays), params',
    mixed,
    (o, i) => ({
      mixed_param_0: o,
      mixed_param_1: i,
      mixed_param_2: mixedArgs.c & 0xff,
      mixed_param_3: mixedArgs.d,
      mixed_param_4: bytesOf(Float32Array.from(mixedArgs.v)),
      mixed_param_5: structBytes(),
    }),
    8 * N,
    mixedExpected(),
    N,
    'params',
  );
  mixed.dispose();
});
attempt('kernarg run --api cuda', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-cuda-run-'));
  const args = join(dir, 'bank.json');
  writeFileSync(
    args,
    JSON.stringify({
      bank_param_0: bankA,
      bank_param_1: bytesOf(Int32Array.from(bankB)),
      bank_param_2: { buffer: 'int', size: 32 },
    }),
  );
  let text = '';
  const io = { ...nodeIO(), stdout: (s: string) => (text += s), stderr: (s: string) => (text += s) };
  const code = runCliWith(
    ['run', PTX, '--api', 'cuda', '--kernel', 'bank', '--args', args, '--global', '32', '--local', '32'],
    io,
  );
  const got = code === 0 ? (JSON.parse(text) as { args: { bank_param_2: number[] } }).args.bank_param_2 : [];
  const diff = code === 0 ? firstDifference(got, bankExpected) : `exit ${code}: ${text}`;
  row('kernarg run --api cuda (bank, PTX)', diff === undefined, diff ?? 'the printed buffer equals the JS reference');
});

// 5. A real cubin from the driver's linker, read by kernarg's cubin reader.
function linkCubin(ptx: string): Uint8Array {
  const k = koffi();
  const lib = k.load(cu.library);
  const create = lib.func('int cuLinkCreate_v2(unsigned int n, int *options, void **values, _Out_ void **state)');
  const add = lib.func(
    'int cuLinkAddData_v2(void *state, int type, const uint8_t *data, size_t size, const char *name, unsigned int ' +
      'n, int *options, void **values)',
  );
  const complete = lib.func('int cuLinkComplete(void *state, _Out_ void **cubin, _Out_ uint64_t *size)');
  const destroy = lib.func('int cuLinkDestroy(void *state)');
  const state: unknown[] = [null];
  let code = create(0, null, null, state) as number;
  if (code) throw new Error(`cuLinkCreate: ${code}`);
  try {
    const data = Buffer.concat([Buffer.from(ptx), Buffer.of(0)]);
    // CU_JIT_INPUT_PTX = 1.
    code = add(state[0], 1, data, data.length, 'launch-kernels.ptx', 0, null, null) as number;
    if (code) throw new Error(`cuLinkAddData: ${code}`);
    const image: unknown[] = [null];
    const size = new BigUint64Array(1);
    code = complete(state[0], image, size) as number;
    if (code) throw new Error(`cuLinkComplete: ${code}`);
    return new Uint8Array(k.view(image[0], Number(size[0]))).slice();
  } finally {
    destroy(state[0]);
  }
}
function checkCubin(label: string, cubin: Uint8Array): void {
  const r = readCubin(cubin);
  if (!r.plan) {
    row(`${label}: read`, false, r.diagnostics.map((d) => d.message).join('; '));
    return;
  }
  const plan = r.plan;
  row(
    `${label}: read`,
    true,
    plan.kernels.map((k) => `${k.name}(${k.args.map((a) => `${a.offset}+${a.size}`).join(' ')})`).join(' '),
  );
  for (const k of plan.kernels) {
    const fromPtx = ptxPlan.kernels.find((p) => p.name === k.name);
    const same =
      fromPtx &&
      JSON.stringify(fromPtx.args.map((a) => [a.offset, a.size])) ===
        JSON.stringify(k.args.map((a) => [a.offset, a.size]));
    row(
      `${label}: ${k.name} equals the PTX plan`,
      !!same,
      same
        ? 'every offset and size'
        : `cubin ${JSON.stringify(k.args.map((a) => [a.offset, a.size]))}, ` +
            `PTX ${JSON.stringify(fromPtx?.args.map((a) => [a.offset, a.size]))}`,
    );
  }
  const m = ctx.module(cubin, label);
  compareWithDriver(`${label} plan vs cuFuncGetParamInfo:`, m, plan);
  attempt(`${label}: launch bank`, () => {
    const bank = m.kernel('bank', plan);
    launchChecked(
      `${label}: bank launched with the cubin's plan`,
      bank,
      (o) => ({ bank_param_0: bankA, bank_param_1: bytesOf(Int32Array.from(bankB)), bank_param_2: o }),
      32,
      bankExpected,
      32,
      'extra',
    );
    bank.dispose();
  });
  m.dispose();
}
attempt('cubin from cuLink', () => {
  const cubin = linkCubin(ptxText);
  console.log(`cuLinkComplete made a cubin of ${cubin.length} bytes`);
  if (out) writeFileSync(join(out, 'launch-kernels.cubin'), cubin);
  checkCubin('cubin (cuLink)', cubin);
});
// The cubins committed as reader fixtures (CUDA 13.0's ptxas and nvcc on the development machine): sm_90
// ones load on an H100/H200 as they are; sm_80's is read and compared, its launch only where the device is sm_80.
const CUBINS = join(import.meta.dirname, '..', 'test', 'readers', 'cubins');
for (const name of ['launch-kernels.sm_90.cubin', 'nvcc-kernels.sm_90.cubin', 'launch-kernels.sm_80.cubin']) {
  const arch = /sm_(\d+)/.exec(name)![1];
  if (devices[0] && devices[0].computeCapability.replace('.', '') !== arch) {
    row(
      `cubin ${name}`,
      undefined,
      `made for sm_${arch}; the device is compute capability ${devices[0].computeCapability}`,
    );
    continue;
  }
  attempt(`cubin ${name}`, () => checkCubin(`cubin ${name}`, new Uint8Array(readFileSync(join(CUBINS, name)))));
}
if (ptxas) {
  attempt('cubin from ptxas', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kernarg-ptxas-'));
    const cc = devices[0]?.computeCapability.replace('.', '') ?? '90';
    const r = spawnSync(ptxas, [`-arch=sm_${cc}`, PTX, '-o', join(dir, 'k.cubin')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`ptxas failed: ${r.stderr}`);
    const cubin = new Uint8Array(readFileSync(join(dir, 'k.cubin')));
    if (out) writeFileSync(join(out, 'launch-kernels.ptxas.cubin'), cubin);
    checkCubin('cubin (ptxas)', cubin);
  });
} else row('cubin from ptxas', undefined, 'ptxas is not installed');

// 7. Local (shared-memory) arguments, both conventions: blocks of 1-, 8- and 16-byte elements.
const LOCAL_SIZE = 64;
const LOCAL_GROUPS = 4;
const localN = 7;
const localExpected = (fixed: boolean) =>
  Int32Array.from({ length: LOCAL_SIZE * LOCAL_GROUPS }, (_, g) => {
    const j = LOCAL_SIZE - 1 - (g % LOCAL_SIZE);
    return (((j + 1) << 24) >> 24) + 100 * j + 10000 * localN + (fixed ? 1000000 * ((j % 5) + 1) : 0);
  });
for (const [mode, file] of [
  ['nvidia', LOCAL_PTX],
  ['pocl', LOCAL_POCL_PTX],
] as const) {
  attempt(`local arguments (${mode})`, () => {
    const text = readFileSync(file, 'utf8');
    const src = lower(LOCAL_CL, readFileSync(LOCAL_CL, 'utf8'), memoryHost({}), {
      target: 'cuda',
      format: 'json',
      cuda: { localMemory: mode },
    });
    if (!src.plan) throw new Error(src.diagnostics.map((d) => d.message).join('\n'));
    const m = ctx.module(text, file);
    for (const form of ['params', 'extra'] as const) {
      const k = m.kernel('locals', src.plan as CudaPlan, { form });
      const outBuf = ctx.buffer<Int32Array>(4 * LOCAL_SIZE * LOCAL_GROUPS);
      k.launchAndWait({
        args: {
          out: outBuf,
          a: { local: LOCAL_SIZE },
          b: { local: 8 * LOCAL_SIZE },
          n: localN,
          c: { local: 16 * LOCAL_SIZE },
        },
        global: [LOCAL_SIZE * LOCAL_GROUPS],
        local: [LOCAL_SIZE],
      });
      const got = outBuf.read(new Int32Array(LOCAL_SIZE * LOCAL_GROUPS));
      const bad = firstDifference(got, localExpected(mode === 'nvidia'));
      const where = mode === 'nvidia' ? `window start ${ctx.dynamicSharedStart()}` : 'offsets from 0';
      row(
        `local arguments (${mode}, ${form})`,
        bad === undefined,
        bad ??
          `${LOCAL_SIZE * LOCAL_GROUPS} results equal JS's (${where}, blocks at ${k.plan.dynamicShared.join(', ')})`,
      );
      k.dispose();
      outBuf.dispose();
    }
    m.dispose();
  });
}

// 8. The plan placed for this device's architecture against the driver, for .align 32/64/128 blocks.
attempt(`plan placed for sm_${ctx.sm}`, () => {
  const wide =
    'typedef struct { char c[13]; } B13;\ntypedef struct __attribute__((aligned(32))) { float v[8]; } A32;\ntypedef ' +
    'struct __attribute__((aligned(64))) { uchar b[64]; } A64;\nkernel void wide(B13 a, A32 b, char c, A64 d, ' +
    'global float *out, long16 e, uchar f) {}\n';
  const planned = lower('wide.cl', wide, memoryHost({}), { target: 'cuda', format: 'json' }).plan as CudaPlan;
  const ptx =
    `.version 8.0\n.target sm_75\n.address_size 64\n.entry ` +
    `wide(${planned.kernels[0].args.map((a) => (a.ptxType === 'b8' ? `.param .align ${a.align} .b8 ${a.ptxName}[${a.size}]` : `.param .${a.ptxType} ${a.ptxName}`)).join(', ')})\n{\n\tret;\n}\n`;
  const m = ctx.module(ptx, 'wide.ptx');
  const k = m.kernel('wide', planned, { strict: false });
  const ok = k.driverParams === undefined ? undefined : k.driverDifferences.length === 0;
  row(
    `plan placed for sm_${ctx.sm} (device ${ctx.device.computeCapability})`,
    ok,
    ok === undefined
      ? 'the driver has no cuFuncGetParamInfo'
      : ok
        ? `offsets ${k.plan.args.map((a) => a.offset).join(', ')} equal cuFuncGetParamInfo's`
        : k.driverDifferences.join('; '),
  );
  k.dispose();
  m.dispose();
});
module.dispose();
ctx.dispose();

// 6. The launch-overhead row (its own processes: the C host and kernarg's rounds).
const bench = join(import.meta.dirname, '..', 'bench', 'cuda-launch-overhead.ts');
if (!existsSync(join(import.meta.dirname, '..', 'dist', 'runtime', 'cuda', 'host.js'))) {
  row(
    'launch-overhead bench',
    undefined,
    'dist/ is not built here (the benchmarks time the built library: npm run build, then carry dist/)',
  );
} else if (existsSync(bench) && !process.env.SKIP_CUDA_BENCH) {
  console.log('launch overhead (bench/cuda-launch-overhead.ts):');
  const r = spawnSync(process.execPath, [...process.execArgv, bench], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  console.log(r.stdout.trim());
  if (r.status !== 0) console.log(r.stderr.trim());
  row('launch-overhead bench', r.status === 0, r.status === 0 ? 'figures above' : `exit ${r.status}`);
}

console.log('\nstep'.padEnd(72) + 'result  detail');
for (const [step, result, detail] of rows)
  console.log(`${step.padEnd(70)}  ${result.padEnd(6)}  ${detail.split('\n')[0].slice(0, 160)}`);
const failed = rows.filter((r) => r[1] === 'FAIL').length;
console.log(
  `\n${rows.length} steps: ${rows.filter((r) => r[1] === 'PASS').length} PASS, ${failed} ` +
    `FAIL, ${rows.filter((r) => r[1] === 'n/a').length} n/a`,
);
process.exit(failed ? 1 : 0);
