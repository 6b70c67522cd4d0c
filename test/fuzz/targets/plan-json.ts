import type { ValueLayout } from '../../../src/abi/plan.js';
import type { AbiPlan } from '../../../src/targets/index.js';
import { PlanError, readPlan } from '../../../src/plan-json/read-plan.js';
import { emitJson, planToJson } from '../../../src/emit/json.js';
import { memoryHost } from '../../../src/frontend/opencl-c/index.js';
import { type TargetName, lower } from '../../../src/lower.js';
import { PackError, RuntimeInputError } from '../../../src/pack/errors.js';
import { jsonSpots } from '../../support/json-spots.js';
import { packed } from '../../support/pack-values.js';

// Fuzz target: the plan reader. Any JSON is a plan or a PlanError. A plan it accepts must pack
// without anything but a PackError, must print back to JSON that reads as the same plan packing
// the same bytes, and no field of it may ever run as code.

const TARGETS: readonly TargetName[] = ['opencl', 'amdhsa', 'amd-cl2', 'r600', 'vulkan', 'llvm'];
const SRC = `typedef struct { char c; long big; float3 v; int arr[2]; } S;
kernel void k(global float *f, local int *tmp, S s, long2 lv, read_only image2d_t img, sampler_t smp, uint n) {}`;
const PRINTS = `kernel void p(global int *a, int n, read_only image2d_t img, sampler_t smp) { printf("%d", n); }`;
const BASES = [
  ...TARGETS.map((target) =>
    emitJson(lower('k.cl', SRC, memoryHost({}), { target, format: 'json', std: 'CL2.0' }).plan!),
  ),
  // Today's clspv: buffer device addresses in push constants, printf reflection, image metadata.
  emitJson(
    lower('p.cl', PRINTS, memoryHost({}), {
      target: 'vulkan',
      format: 'json',
      std: 'CL2.0',
      vulkan: { physicalStorageBuffers: true, enablePrintf: true, podArgs: 'auto', arch: 'spir64' },
    }).plan!,
  ),
  emitJson(
    lower('p.cl', PRINTS, memoryHost({}), {
      target: 'amdhsa',
      format: 'json',
      std: 'CL2.0',
      amdhsa: { codeObject: 6, llvm: 19 },
    }).plan!,
  ),
];
const SENTINEL = '__kernargFuzzPwned';
const CODE = [
  `0,globalThis.${SENTINEL}=1,0`,
  `"]; globalThis.${SENTINEL} = 1; //`,
  `\`\${globalThis.${SENTINEL}=1}\``,
  'constructor',
  '__proto__',
  'toString',
  '1e3',
  '0x10',
  ' 8',
];
const JUNK: unknown[] = [
  0,
  1,
  -1,
  3,
  8,
  16,
  2 ** 31,
  2 ** 32,
  2 ** 32 + 1,
  2 ** 53,
  1.5,
  -0,
  null,
  true,
  [],
  {},
  [1, 2, 3],
  ...CODE,
  'scalar',
  'struct',
  'union',
  'vector',
  'array',
  'int',
  'long',
  'float',
  'handle',
  'value',
  'buffer',
  'local',
  'pod',
];

/** A real plan of a byte-chosen target with byte-chosen fields replaced, so random bytes get past the first check. */
function mutated(data: Uint8Array): unknown {
  let i = 1;
  const next = () => data[i++ % data.length] ?? 0;
  const root = JSON.parse(BASES[data[0] % BASES.length]) as Record<string, unknown>;
  const spots = jsonSpots(root);
  for (let n = 1 + (next() % 3); n > 0; n--) {
    const [o, k] = spots[((next() << 8) | next()) % spots.length];
    const how = next() % 4;
    if (how === 0) delete o[k];
    else if (how === 1 && typeof o[k] === 'number')
      o[k] = (o[k] as number) + (next() % 2 ? 1 : -1) * (1 << (next() % 33));
    else o[k] = JUNK[next() % JUNK.length];
  }
  return root;
}

function zeroFor(l: ValueLayout): unknown {
  switch (l.kind) {
    case 'scalar':
      return l.size === 8 && !['double'].includes(l.scalar) ? 0n : 0;
    case 'vector':
      return Array.from({ length: l.length }, () => (['long', 'ulong'].includes(l.element) ? 0n : 0));
    case 'array':
      return Array.from({ length: l.length }, () => zeroFor(l.element));
    case 'record': {
      const named = l.fields.filter((f) => f.name !== null);
      return Object.fromEntries(
        (l.tagKind === 'union' ? named.slice(0, 1) : named).map((f) => [f.name, zeroFor(f.layout)]),
      );
    }
  }
}

/** Zero arguments for every explicit slot (addresses, handles and local sizes where there is no layout). */
function zeroArgs(plan: AbiPlan, kernel: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const a of plan.kernels.find((k) => k.name === kernel)!.args as unknown as readonly Record<string, unknown>[]) {
    if (a.param === null || a.role === 'image-size' || a.role === 'image-format') continue;
    const l = a.layout as ValueLayout | undefined;
    const name = a.name as string;
    if (a.role === 'image' && plan.target === 'r600')
      args[name] = { width: 1, channelOrder: 0x10b5, channelType: 0x10de };
    else if (l && !(plan.target === 'amd-cl2' && a.argType === 'structure')) args[name] = zeroFor(l);
    else if (a.role === 'local' || a.argKind === 'local')
      args[name] = { local: 4 * ((a.arrayElemSize as number | undefined) ?? 1) };
    else args[name] = plan.target === 'opencl' || plan.target === 'vulkan' ? { handle: 1 } : 0n;
  }
  return args;
}

const expected = (e: unknown) => e instanceof PackError || e instanceof RuntimeInputError;

export function fuzz(data: Uint8Array): void {
  if (data.length === 0) return;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(data));
  } catch {
    json = mutated(data);
  }
  let plan: AbiPlan;
  try {
    plan = readPlan(json);
  } catch (e) {
    if (e instanceof PlanError) return;
    throw e;
  }
  const again = readPlan(JSON.parse(JSON.stringify(planToJson(plan))));
  for (const k of plan.kernels) {
    const args = zeroArgs(plan, k.name);
    for (const interpreted of [false, true]) {
      let first: string | undefined;
      try {
        first = packed(plan, k.name, args, interpreted);
      } catch (e) {
        if (!expected(e)) throw e;
      }
      let second: string | undefined;
      try {
        second = packed(again, k.name, args, interpreted);
      } catch (e) {
        if (!expected(e)) throw e;
      }
      if (first !== second) throw new Error(`plan → JSON → plan packs different bytes for '${k.name}'`);
    }
  }
  if ((globalThis as Record<string, unknown>)[SENTINEL] !== undefined) throw new Error('a plan field ran as code');
}
