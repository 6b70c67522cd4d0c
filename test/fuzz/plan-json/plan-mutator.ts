// The plan-json fuzz target's structured mutator: a real plan of a byte-chosen kind with byte-chosen edits, so random
// bytes get past the first check. Besides replacing and deleting values it adds keys (every key any plan kind writes
// at any level, put where it does not belong, and unknown ones) and moves and copies keys between slots, of the same
// plan or of another target's: a reader that keeps a key the writer drops is found only by inputs that add one.
import { JSON_KEY_ORDER } from '../../../src/emit/json-key-order.js';
import { emitJson } from '../../../src/emit/json.js';
import { memoryHost } from '../../../src/frontend/opencl-c/index.js';
import { type LowerOptions, type TargetName, lower } from '../../../src/lower.js';
import { jsonSpots } from '../../support/json-spots.js';
import { Rng } from '../mutate.js';

const TARGETS: readonly TargetName[] = ['opencl', 'amdhsa', 'amd-cl2', 'r600', 'vulkan', 'llvm', 'cuda', 'zebin'];
const SRC = `typedef struct { char c; long big; float3 v; int arr[2]; } S;
kernel void k(global float *f, local int *tmp, S s, long2 lv, read_only image2d_t img, sampler_t smp, uint n) {}`;
const PRINTS = `kernel void p(global int *a, int n, read_only image2d_t img, sampler_t smp) { printf("%d", n); }`;
// tinytc's derived parameters: slots with `dim` and `host` rules (amd-cl2 has no pointer to pointers: no group).
const TINYTC = 'func @t(%a: memref<f32x5x?,strided<1,?>>, %g: group<memref<i32x?>, offset: ?>, %n: i64) {}';
const TINYTC_NO_GROUP = 'func @t(%a: memref<f32x5x?,strided<1,?>>, %n: i64) {}';

const plan = (path: string, source: string, options: Omit<LowerOptions, 'format'>): string =>
  emitJson(lower(path, source, memoryHost({}), { format: 'json', ...options }).plan!);

/** The plans edits start from, as JSON texts; byte 0 of an input picks one. */
const BASES: readonly string[] = [
  ...TARGETS.slice(0, 6).map((target) => plan('k.cl', SRC, { target, std: 'CL2.0' })),
  // Today's clspv: buffer device addresses in push constants, printf reflection, image metadata.
  plan('p.cl', PRINTS, {
    target: 'vulkan',
    std: 'CL2.0',
    vulkan: { physicalStorageBuffers: true, enablePrintf: true, podArgs: 'auto', arch: 'spir64' },
  }),
  plan('p.cl', PRINTS, { target: 'amdhsa', std: 'CL2.0', amdhsa: { codeObject: 6, llvm: 19 } }),
  ...TARGETS.slice(6).map((target) => plan('k.cl', SRC, { target, std: 'CL2.0' })),
  ...TARGETS.map((target) => plan('t.ir', target === 'amd-cl2' ? TINYTC_NO_GROUP : TINYTC, { target })),
];
const PARSED = BASES.map((b) => JSON.parse(b) as Record<string, unknown>);

const SENTINEL = '__kernargFuzzPwned';
/** Text that would run if a plan field were ever spliced into generated code. */
export const PWNED = (): boolean => (globalThis as Record<string, unknown>)[SENTINEL] !== undefined;
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
const JUNK: readonly unknown[] = [
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

/** Keys no plan writes: misspellings, prototype names, the empty key. */
const UNKNOWN_KEYS = ['extra', 'Name', 'param ', '', '__proto__', 'constructor', 'toString', 'hasOwnProperty'];
/** Keys of the objects inside slots: value layouts and their fields, host rules. */
const NESTED_KEYS = ['kind', 'type', 'element', 'length', 'stride', 'size', 'align', 'typeName', 'fields', 'name'];
const NESTED_MORE = ['offset', 'layout', 'bitOffset', 'bitWidth', 'arg', 'take', 'dim', 'perMember'];

type Order = (typeof JSON_KEY_ORDER)[keyof typeof JSON_KEY_ORDER];
const orders = Object.values(JSON_KEY_ORDER) as Order[];
/** Every key a plan kind writes on a slot of either kind: where a key valid on one kind of slot meets the other. */
const SLOT_KEYS_OF = new Map<string, readonly string[]>(
  Object.entries(JSON_KEY_ORDER).map(([t, o]) => [t, [...new Set<string>([...o.slot, ...o.implicitSlot])]]),
);
/** Every key any plan writes anywhere, and keys none writes. */
const ALL_KEYS = [
  ...new Set<string>([
    ...orders.flatMap((o) => [...o.plan, ...o.kernel, ...o.slot, ...o.implicitSlot]),
    'kernels',
    'args',
    ...NESTED_KEYS,
    ...NESTED_MORE,
  ]),
];

/** The values each key takes anywhere in any base plan: an added key gets one of its own values most of the time. */
const VALUES = new Map<string, unknown[]>();
for (const root of PARSED)
  for (const [o, k] of jsonSpots(root)) {
    const seen = VALUES.get(k) ?? VALUES.set(k, []).get(k)!;
    const v = o[k];
    if (seen.length < 64 && !seen.some((x) => JSON.stringify(x) === JSON.stringify(v))) seen.push(v);
  }

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every object of a JSON tree (not lists), depth first. */
function objectsOf(root: unknown): Obj[] {
  const out: Obj[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (isObj(v)) {
      out.push(v);
      for (const k of Object.keys(v)) walk(v[k]);
    }
  };
  walk(root);
  return out;
}

/** The slots of a plan's JSON form (objects of `kernels[*].args`), where they are still lists of objects. */
function slotsOf(root: Obj): Obj[] {
  const kernels = Array.isArray(root.kernels) ? (root.kernels as unknown[]) : [];
  return kernels.flatMap((k) => (isObj(k) && Array.isArray(k.args) ? k.args.filter(isObj) : []));
}

/** Sets `o[k]` as JSON.parse would (an own data property, even for `__proto__`). */
function put(o: Obj, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/**
 * The bytes that choose a plan's edits: the input's own, one a draw; or, for the text of a JSON object that does not
 * parse (a byte edit of a JSON regression or corpus input: its first bytes are always `{"target":"` and chose the
 * same edits every time), draws of a generator seeded with a hash of the whole text, so that any edit chooses anew.
 */
function choices(data: Uint8Array): () => number {
  if (data[0] !== 0x7b) {
    let i = 0;
    return () => data[i++ % data.length] ?? 0;
  }
  let h = 0x811c9dc5;
  for (const b of data) h = Math.imul(h ^ b, 0x01000193);
  const rng = new Rng(h >>> 0);
  return () => rng.next() & 0xff;
}

/** A byte-driven plan: the base picked by the first draw, then one to three edits, each chosen by the draws after it. */
export function mutatedPlan(data: Uint8Array): unknown {
  const next = choices(data);
  const pick = <T>(xs: readonly T[]): T => xs[((next() << 8) | next()) % xs.length];
  const root = JSON.parse(BASES[next() % BASES.length]) as Obj;
  const target = String(root.target);
  const valueFor = (k: string): unknown => {
    const own = VALUES.get(k);
    // Copies: an added value is edited by later draws (keys put into it), and must not carry over to other inputs.
    return structuredClone(own && next() % 4 ? pick(own) : pick(JUNK));
  };
  /** A slot most of the time (where the writer's two key lists part), else any object. */
  const someObject = (): Obj | undefined => {
    const slots = slotsOf(root);
    const pool = slots.length && next() % 4 ? slots : objectsOf(root);
    return pool.length ? pick(pool) : undefined;
  };
  /**
   * A key to add to `o`: on a slot, half the time one this plan kind writes only on the other kind of slot (with or
   * without a param: the writer's two lists); else one this plan kind writes on some slot, one any plan writes
   * anywhere, or one none writes.
   */
  const keyFor = (o: Obj): string => {
    const own = JSON_KEY_ORDER[target as keyof typeof JSON_KEY_ORDER];
    if (own && 'param' in o && next() % 2) {
      const [mine, other] = o.param === null ? [own.implicitSlot, own.slot] : [own.slot, own.implicitSlot];
      const foreign = (other as readonly string[]).filter((k) => !(mine as readonly string[]).includes(k));
      if (foreign.length) return pick(foreign);
    }
    const which = next() % 4;
    return which < 2 ? pick(SLOT_KEYS_OF.get(target) ?? ALL_KEYS) : which === 2 ? pick(ALL_KEYS) : pick(UNKNOWN_KEYS);
  };
  for (let n = 1 + (next() % 3); n > 0; n--) {
    const how = next() % 8;
    if (how <= 2) {
      // The edits of before: delete, shift a number, replace with junk or with a value the key takes elsewhere.
      const spots = jsonSpots(root);
      if (!spots.length) continue;
      const [o, k] = pick(spots);
      const edit = next() % 4;
      if (edit === 0) delete o[k];
      else if (edit === 1 && typeof o[k] === 'number')
        o[k] = (o[k] as number) + (next() % 2 ? 1 : -1) * (1 << (next() % 33));
      else if (edit === 2) o[k] = structuredClone(pick(JUNK));
      else o[k] = valueFor(k);
    } else if (how <= 5) {
      const o = someObject();
      if (!o) continue;
      const k = keyFor(o);
      put(o, k, valueFor(k));
    } else if (how === 6) {
      // Move or copy a key from one slot to another of the same plan.
      const slots = slotsOf(root);
      if (slots.length < 2) continue;
      const from = pick(slots);
      const to = pick(slots);
      const keys = Object.keys(from);
      if (!keys.length) continue;
      const k = pick(keys);
      put(to, k, structuredClone(from[k]));
      if (next() % 2) delete from[k];
    } else {
      // Copy a key from a slot of another plan (another target, or tinytc's derived parameters) into this one's.
      const to = someObject();
      const other = slotsOf(pick(PARSED));
      if (!to || !other.length) continue;
      const from = pick(other);
      const keys = Object.keys(from);
      if (keys.length) {
        const k = pick(keys);
        put(to, k, structuredClone(from[k]));
      }
    }
  }
  return root;
}
