// A whole compute dispatch of a kernarg SPIR-V module, executed here: every work-group of a grid,
// in each every work-item from barrier to barrier (loops, branches and all), every access to the
// storage buffers and Workgroup arrays recorded by (work-group, work-item). What it reports:
// - an element of a buffer written by two work-groups, or read by one and written by another
//   (work-groups are not ordered against each other at all);
// - within a work-group, an element written by one work-item and read or written by another with
//   no barrier between them that orders that memory (UniformMemory for buffers, WorkgroupMemory for
//   Workgroup arrays);
// - a read of a Workgroup element this work-group has not written (uninitialised), or of a
//   Function variable never stored;
// - an access outside a buffer or an array;
// - work-items of one work-group stopping at different barriers (non-uniform control flow).
// It knows the opcodes kernarg's tinytc printer emits for GEMMs and the vector axpby (a buffer's
// second variable of vectors at its binding is the same memory) and throws on any other.
import { Op } from '../../src/emit/spirv/spec.js';

type Data = Float32Array | Float64Array | Int32Array | BigInt64Array;
interface Mem {
  readonly uid: number;
  readonly name: string;
  readonly kind: 'buffer' | 'workgroup' | 'function' | 'pod';
  data: ArrayLike<unknown> & { [i: number]: unknown };
  readonly length: number;
  readonly track?: Track;
}
interface Ptr {
  readonly m: Mem;
  readonly i: number;
  /** A buffer read as vectors (its aliased variable of vecN elements): n elements from i. */
  readonly n?: number;
}
interface Item {
  readonly r: unknown[];
  pc: number;
  /** 0 running, 1 at a barrier, 2 returned. */
  stop: number;
  readonly w: number;
}
type Exec = (s: Item) => void;

/**
 * Who touched each element last, as typed arrays (-1: nobody): the writer's group, work-item and
 * epoch (barriers that order the memory so far), the reading group (-2: several), and the last
 * read's work-item and epoch, `many` where two work-items read it in that epoch.
 */
class Track {
  readonly wg: Int32Array;
  readonly wi: Int32Array;
  readonly we: Int32Array;
  readonly rgs: Int32Array;
  readonly ri: Int32Array;
  readonly re: Int32Array;
  readonly many: Uint8Array;
  constructor(n: number) {
    [this.wg, this.wi, this.we, this.rgs, this.ri, this.re] = Array.from({ length: 6 }, () =>
      new Int32Array(n).fill(-1),
    );
    this.many = new Uint8Array(n);
  }
}

export interface DispatchInput {
  /** Buffers by parameter name (the `fn.X` OpName), modified in place. */
  readonly buffers: Readonly<Record<string, Data>>;
  /** POD arguments by member name. */
  readonly pods?: Readonly<Record<string, number>>;
  readonly groups: readonly [number, number, number];
  /** Stop collecting after this many problems (default 20). */
  readonly maxProblems?: number;
}

export interface DispatchResult {
  readonly problems: string[];
  /** Per buffer, how many times each element was written over the whole dispatch. */
  readonly writes: Map<string, Uint32Array>;
}

const BARRIER_UNIFORM = 0x40;
const BARRIER_WORKGROUP = 0x100;

function literalString(words: Uint32Array, at: number): string {
  const bytes: number[] = [];
  for (let i = at; ; i++) {
    const w = words[i];
    for (let b = 0; b < 4; b++) {
      const c = (w >>> (8 * b)) & 0xff;
      if (c === 0) return String.fromCharCode(...bytes);
      bytes.push(c);
    }
  }
}

type Type =
  | { k: 'int'; w: number; signed: boolean }
  | { k: 'float'; w: number }
  | { k: 'bool' }
  | { k: 'vec'; n: number; comp: number }
  | { k: 'array'; elem: number; n: number }
  | { k: 'rta'; elem: number }
  | { k: 'struct'; members: number[] }
  | { k: 'ptr'; sc: number; to: number }
  | { k: 'other' };

/** Runs the module's entry point `entry` over a grid of `groups` work-groups. */
export function runDispatch(words: Uint32Array, entry: string, input: DispatchInput): DispatchResult {
  const types = new Map<number, Type>();
  const consts = new Map<number, unknown>();
  const names = new Map<number, string>();
  const memberNames = new Map<string, string>();
  const builtins = new Map<number, number>();
  const moduleVars = new Map<number, { sc: number; type: number }>();
  const localSize = new Map<number, [number, number, number]>();
  const entries = new Map<string, number>();
  const functions = new Map<number, Uint32Array[]>();
  let current: Uint32Array[] | null = null;
  for (let at = 5; at < words.length;) {
    const n = words[at] >>> 16;
    const op = words[at] & 0xffff;
    const ins = words.subarray(at, at + n);
    at += n;
    if (current) {
      if (op === Op.FunctionEnd) current = null;
      else current.push(ins);
      continue;
    }
    switch (op) {
      case Op.Name:
        names.set(ins[1], literalString(ins, 2));
        break;
      case Op.MemberName:
        memberNames.set(`${ins[1]}:${ins[2]}`, literalString(ins, 3));
        break;
      case Op.EntryPoint:
        entries.set(literalString(ins, 3), ins[2]);
        break;
      case Op.ExecutionMode:
        if (ins[2] === 17) localSize.set(ins[1], [ins[3], ins[4], ins[5]]);
        break;
      case Op.Decorate:
        if (ins[2] === 11) builtins.set(ins[1], ins[3]);
        break;
      case Op.TypeInt:
        types.set(ins[1], { k: 'int', w: ins[2], signed: ins[3] === 1 });
        break;
      case Op.TypeFloat:
        types.set(ins[1], { k: 'float', w: ins[2] });
        break;
      case Op.TypeBool:
        types.set(ins[1], { k: 'bool' });
        break;
      case Op.TypeVector:
        types.set(ins[1], { k: 'vec', n: ins[3], comp: ins[2] });
        break;
      case Op.TypeArray:
        types.set(ins[1], { k: 'array', elem: ins[2], n: Number(consts.get(ins[3])) });
        break;
      case Op.TypeRuntimeArray:
        types.set(ins[1], { k: 'rta', elem: ins[2] });
        break;
      case Op.TypeStruct:
        types.set(ins[1], { k: 'struct', members: [...ins.subarray(2)] });
        break;
      case Op.TypePointer:
        types.set(ins[1], { k: 'ptr', sc: ins[2], to: ins[3] });
        break;
      case Op.Constant: {
        const t = types.get(ins[1])!;
        const lo = ins[3];
        const hi = ins[4] ?? 0;
        if (t.k === 'int') consts.set(ins[2], t.w === 64 ? hi * 2 ** 32 + lo : lo);
        else if (t.k === 'float') {
          const v = new DataView(new ArrayBuffer(8));
          if (t.w === 32) {
            v.setUint32(0, lo, true);
            consts.set(ins[2], v.getFloat32(0, true));
          } else {
            v.setUint32(0, lo, true);
            v.setUint32(4, hi, true);
            consts.set(ins[2], v.getFloat64(0, true));
          }
        } else throw new Error(`a constant of type ${t.k}`);
        break;
      }
      case Op.ConstantTrue:
        consts.set(ins[2], true);
        break;
      case Op.ConstantFalse:
        consts.set(ins[2], false);
        break;
      case Op.Variable:
        moduleVars.set(ins[2], { sc: ins[3], type: ins[1] });
        break;
      case Op.Function:
        current = [];
        functions.set(ins[2], current);
        break;
      case Op.SpecConstant:
      case Op.SpecConstantComposite:
      case Op.ConstantComposite:
      case Op.ConstantNull:
        throw new Error(`the dispatch checker has no module-level opcode ${op}`);
      default:
        break;
    }
  }
  const fnId = entries.get(entry);
  if (fnId === undefined) throw new Error(`no entry point ${entry}`);
  const [x, y, z] = localSize.get(fnId)!;
  const body = functions.get(fnId)!;
  const n = x * y * z;
  const problems: string[] = [];
  const maxProblems = input.maxProblems ?? 20;
  const problem = (p: string) => {
    if (problems.length < maxProblems) problems.push(p);
  };

  // Memories: buffers (a struct of one runtime array, by the parameter's name), POD blocks (a struct of scalars),
  // Workgroup arrays.
  let uids = 0;
  const pointee = (varType: number) => (types.get(varType) as { to: number }).to;
  const buffers = new Map<number, Mem>();
  /** A buffer's variable of vectors (the vector axpby's alias at the same binding): the buffer and the components. */
  const vectorViews = new Map<number, { param: string; n: number }>();
  const byParam = new Map<string, Mem>();
  const pods = new Map<number, Mem>();
  const workgroupVars: { id: number; length: number; name: string }[] = [];
  const writes = new Map<string, Uint32Array>();
  for (const [id, v] of moduleVars) {
    const t = types.get(pointee(v.type))!;
    if (v.sc === 12 || v.sc === 9 || v.sc === 2) {
      if (t.k !== 'struct') throw new Error(`a buffer variable %${id} of type ${t.k}`);
      const member = types.get(t.members[0])!;
      const name = names.get(id) ?? `%${id}`;
      if (member.k === 'rta') {
        const param = name.slice(name.lastIndexOf('.') + 1);
        if (!name.startsWith(`${entry}.`)) continue;
        const elem = types.get(member.elem)!;
        if (elem.k === 'vec') {
          vectorViews.set(id, { param, n: elem.n });
          continue;
        }
        const data = input.buffers[param];
        if (!data) throw new Error(`no data for buffer ${param}`);
        const m: Mem = {
          uid: uids++,
          name: param,
          kind: 'buffer',
          data,
          length: data.length,
          track: new Track(data.length),
        };
        buffers.set(id, m);
        byParam.set(param, m);
        writes.set(param, new Uint32Array(data.length));
      } else {
        const values = t.members.map((_, i) => {
          const member = memberNames.get(`${pointee(v.type)}:${i}`) ?? String(i);
          return input.pods?.[member];
        });
        pods.set(id, { uid: uids++, name, kind: 'pod', data: values, length: values.length });
      }
    } else if (v.sc === 4) {
      if (t.k !== 'array') throw new Error(`a Workgroup variable of type ${t.k}`);
      workgroupVars.push({ id, length: t.n, name: names.get(id) ?? `%${id}` });
    }
  }

  // Per work-group state the instructions below read.
  let group: [number, number, number] = [0, 0, 0];
  let groupIndex = 0;
  let wEpoch = 0;
  let uEpoch = 0;
  let workgroup = new Map<number, Mem>();
  let lids: [number, number, number][] = [];
  const where = (p: Ptr) => `${p.m.name}[${p.i}]`;

  /** Records one access to a buffer or a Workgroup array (Function variables and POD blocks are not tracked). */
  function access(s: Item, p: Ptr, write: boolean): void {
    const m = p.m;
    const t = m.track;
    if (!t) return;
    const i = p.i;
    if (!(Number.isInteger(i) && i >= 0 && i < m.length)) {
      problem(
        `work-group ${groupIndex} work-item ${s.w} ${write ? 'writes' : 'reads'} ${where(p)}, outside ` +
          `its ${m.length} elements`,
      );
      return;
    }
    const local = m.kind === 'workgroup';
    const epoch = local ? wEpoch : uEpoch;
    const g = groupIndex;
    const mine = t.wg[i] === g && t.we[i] === epoch;
    if (write) {
      if (!local && m.kind === 'buffer') writes.get(m.name)![i]++;
      if (t.wg[i] >= 0 && t.wg[i] !== g) problem(`${where(p)} written by work-groups ${t.wg[i]} and ${g}`);
      else if (mine && t.wi[i] !== s.w)
        problem(`${where(p)} written by work-items ${t.wi[i]} and ${s.w} of work-group ${g} with no barrier between`);
      if (t.rgs[i] === -2 || (t.rgs[i] >= 0 && t.rgs[i] !== g))
        problem(
          `work-group ${groupIndex} work-item ${s.w} writes ${where(p)}, read ` +
            `by ${t.rgs[i] === -2 ? 'several work-groups' : `work-group ${t.rgs[i]}`}`,
        );
      else if (t.rgs[i] === g && t.re[i] === epoch && (t.many[i] || t.ri[i] !== s.w))
        problem(
          `work-group ${groupIndex} work-item ${s.w} writes ${where(p)}, read by another work-item of its group ` +
            `with no barrier between`,
        );
      t.wg[i] = g;
      t.wi[i] = s.w;
      t.we[i] = epoch;
    } else {
      if (local && t.wg[i] !== g)
        problem(
          `work-group ${groupIndex} work-item ${s.w} reads ${where(p)}, which this work-group never wrote ` +
            `(uninitialised)`,
        );
      else if (t.wg[i] >= 0 && t.wg[i] !== g)
        problem(`work-group ${groupIndex} work-item ${s.w} reads ${where(p)}, written by work-group ${t.wg[i]}`);
      else if (mine && t.wi[i] !== s.w)
        problem(
          `work-group ${groupIndex} work-item ${s.w} reads ${where(p)}, written by work-item ${t.wi[i]} with no ` +
            `barrier between`,
        );
      if (t.rgs[i] === g && t.re[i] === epoch) {
        if (t.ri[i] !== s.w) t.many[i] = 1;
      } else t.many[i] = 0;
      t.rgs[i] = t.rgs[i] === -1 || t.rgs[i] === g ? g : -2;
      t.ri[i] = s.w;
      t.re[i] = epoch;
    }
  }

  // The function body, compiled to closures over a register file per work-item.
  const labels = new Map<number, number>();
  body.forEach((ins, i) => {
    if ((ins[0] & 0xffff) === Op.Label) labels.set(ins[1], i);
  });
  const isFloat = (t: number) => types.get(t)?.k === 'float';
  // The type of each value: constants' and the body's (every opcode with a result type and a result id).
  const valueType = new Map<number, number>();
  const NO_TYPE = new Set<number>([
    Op.Label,
    Op.Branch,
    Op.BranchConditional,
    Op.Return,
    Op.ControlBarrier,
    Op.Store,
    Op.LoopMerge,
    Op.SelectionMerge,
  ]);
  for (let at = 5; at < words.length; at += words[at] >>> 16)
    if ((words[at] & 0xffff) === Op.Constant) valueType.set(words[at + 2], words[at + 1]);
  for (const ins of body) if (!NO_TYPE.has(ins[0] & 0xffff)) valueType.set(ins[2], ins[1]);
  const width = (value: number) => (types.get(valueType.get(value)!) as { w?: number } | undefined)?.w ?? 0;
  const code: Exec[] = body.map((ins) => compile(ins));
  function compile(ins: Uint32Array): Exec {
    const op = ins[0] & 0xffff;
    const [t, res, a, b, c] = [ins[1], ins[2], ins[3], ins[4], ins[5]];
    const rt = types.get(t);
    const ct = rt?.k === 'vec' ? types.get(rt.comp) : rt;
    const f32 = ct?.k === 'float' && ct.w === 32;
    const round = f32 ? Math.fround : (v: number) => v;
    const int = (v: number) => (rt?.k === 'int' && rt.w === 32 ? v >>> 0 : v);
    const s32 = (id: number, v: number) => (width(id) === 32 ? v | 0 : v);
    const bin =
      (f: (x: number, y: number) => number): Exec =>
      (s) => {
        s.r[res] = f(s.r[a] as number, s.r[b] as number);
      };
    /** Component by component where the result is a vector. */
    const fbin = (f: (x: number, y: number) => number): Exec =>
      rt?.k === 'vec'
        ? (s) => void (s.r[res] = (s.r[a] as number[]).map((x, k) => f(x, (s.r[b] as number[])[k])))
        : bin(f);
    switch (op) {
      case Op.Label:
      case Op.LoopMerge:
      case Op.SelectionMerge:
      case Op.ExtInst:
        return () => {};
      case Op.Branch: {
        const to = labels.get(ins[1])!;
        return (s) => {
          s.pc = to;
        };
      }
      case Op.BranchConditional: {
        const [cond, yes, no] = [ins[1], labels.get(ins[2])!, labels.get(ins[3])!];
        return (s) => {
          s.pc = s.r[cond] ? yes : no;
        };
      }
      case Op.Return:
        return (s) => {
          s.stop = 2;
        };
      case Op.ControlBarrier:
        return (s) => {
          s.stop = 1;
        };
      case Op.Variable:
        return (s) => {
          s.r[res] = {
            m: { uid: -1, name: `%${res}`, kind: 'function', data: [undefined], length: 1 },
            i: 0,
          } satisfies Ptr;
        };
      case Op.Load: {
        const bi = builtins.get(a);
        if (bi === 27) return (s) => void (s.r[res] = lids[s.w]);
        if (bi === 26) return (s) => void (s.r[res] = group);
        if (bi === 24) return (s) => void (s.r[res] = input.groups);
        if (bi !== undefined) throw new Error(`the builtin ${bi}`);
        return (s) => {
          const p = s.r[a] as Ptr;
          if (p.n) {
            s.r[res] = Array.from({ length: p.n }, (_, k) => {
              const q = { m: p.m, i: p.i + k };
              access(s, q, false);
              return p.m.data[q.i];
            });
            return;
          }
          access(s, p, false);
          const v = p.m.data[p.i];
          if (v === undefined && p.m.kind === 'function')
            problem(`work-group ${groupIndex} work-item ${s.w} reads ${where(p)}, never written`);
          s.r[res] = typeof v === 'bigint' ? Number(v) : v;
        };
      }
      case Op.Store:
        return (s) => {
          const p = s.r[ins[1]] as Ptr;
          const d = p.m.data;
          if (p.n) {
            (s.r[ins[2]] as number[]).forEach((v, k) => {
              access(s, { m: p.m, i: p.i + k }, true);
              d[p.i + k] = v;
            });
            return;
          }
          access(s, p, true);
          d[p.i] = d instanceof BigInt64Array ? BigInt(s.r[ins[2]] as number) : s.r[ins[2]];
        };
      case Op.AccessChain: {
        const indices = [...ins.subarray(4)];
        return (s) => {
          const base = s.r[a] as Ptr;
          if (base.m.kind === 'buffer')
            s.r[res] = base.n
              ? { m: base.m, i: (s.r[indices[1]] as number) * base.n, n: base.n }
              : { m: base.m, i: s.r[indices[1]] as number };
          else if (base.m.kind === 'pod') s.r[res] = { m: base.m, i: s.r[indices[0]] as number };
          else s.r[res] = { m: base.m, i: s.r[indices[0]] as number };
        };
      }
      case Op.CompositeExtract:
        return (s) => void (s.r[res] = (s.r[a] as number[])[ins[4]]);
      case Op.UConvert:
      case Op.SConvert:
      case Op.Bitcast:
        return (s) => void (s.r[res] = int(s.r[a] as number));
      case Op.FConvert:
      case Op.ConvertSToF:
        return (s) => void (s.r[res] = round(s.r[a] as number));
      case Op.IAdd:
        return bin((p, q) => int(p + q));
      case Op.ISub:
        return bin((p, q) => int(p - q));
      case Op.IMul:
        return bin((p, q) => int(p * q));
      case Op.UDiv:
        return bin((p, q) => Math.floor(p / q));
      case Op.UMod:
        return bin((p, q) => p % q);
      case Op.SDiv:
        return bin((p, q) => Math.trunc(p / q));
      case Op.FAdd:
        return fbin((p, q) => round(p + q));
      case Op.FSub:
        return fbin((p, q) => round(p - q));
      case Op.FMul:
        return fbin((p, q) => round(p * q));
      case Op.VectorTimesScalar:
        return (s) => void (s.r[res] = (s.r[a] as number[]).map((x) => round(x * (s.r[b] as number))));
      case Op.BitwiseAnd:
        return bin((p, q) => Number(BigInt(p) & BigInt(q)));
      case Op.FNegate:
        return (s) => void (s.r[res] = -(s.r[a] as number));
      case Op.SLessThan:
        return (s) => void (s.r[res] = s32(a, s.r[a] as number) < s32(b, s.r[b] as number));
      case Op.IEqual:
        return bin((p, q) => Number(p === q));
      case Op.LogicalAnd:
        return (s) => void (s.r[res] = Boolean(s.r[a]) && Boolean(s.r[b]));
      case Op.Select:
        return (s) => void (s.r[res] = s.r[a] ? s.r[b] : s.r[c]);
      default:
        throw new Error(`the dispatch checker has no opcode ${op}${isFloat(t) ? ' (float)' : ''}`);
    }
  }

  const [gx, gy, gz] = input.groups;
  for (let k = 0; k < gz; k++)
    for (let j = 0; j < gy; j++)
      for (let i = 0; i < gx; i++) {
        group = [i, j, k];
        groupIndex = i + gx * (j + gy * k);
        workgroup = new Map();
        for (const v of workgroupVars) {
          workgroup.set(v.id, {
            uid: uids++,
            name: v.name,
            kind: 'workgroup',
            data: new Array(v.length),
            length: v.length,
            track: new Track(v.length),
          });
        }
        lids = Array.from({ length: n }, (_, w) => [w % x, Math.floor(w / x) % y, Math.floor(w / (x * y))]);
        const items: Item[] = Array.from({ length: n }, (_, w) => {
          const r: unknown[] = new Array<unknown>(words[3]).fill(0);
          for (const [id, v] of consts) r[id] = v;
          for (const [id, m] of buffers) r[id] = { m, i: 0 } satisfies Ptr;
          for (const [id, v] of vectorViews) r[id] = { m: byParam.get(v.param)!, i: 0, n: v.n } satisfies Ptr;
          for (const [id, m] of pods) r[id] = { m, i: 0 } satisfies Ptr;
          for (const [id, m] of workgroup) r[id] = { m, i: 0 } satisfies Ptr;
          return { r, pc: 0, stop: 0, w };
        });
        for (let phase = 0; items.some((s) => s.stop !== 2); phase++) {
          const at = new Set<number>();
          for (const s of items) {
            if (s.stop === 2) {
              at.add(-1);
              continue;
            }
            s.stop = 0;
            while (s.stop === 0) code[s.pc++](s);
            at.add(s.stop === 2 ? -1 : s.pc - 1);
          }
          if (at.size > 1) {
            problem(
              `work-group ${groupIndex}: its work-items stop at ${at.size} different barriers (control flow not ` +
                `uniform)`,
            );
            return { problems, writes };
          }
          const [pc] = at;
          if (pc >= 0) {
            const semantics = Number(items[0].r[body[pc][3]]);
            if (semantics & BARRIER_WORKGROUP) wEpoch++;
            if (semantics & BARRIER_UNIFORM) uEpoch++;
          }
        }
        uEpoch++;
      }
  return { problems, writes };
}
