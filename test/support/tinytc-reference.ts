// A JS interpreter of tinytc v0.3 semantics: the reference the generated OpenCL C is tested against.
// Work-groups run one after another; within one, replicated instructions run once (every work-item
// would compute the same), collective ones and foreach loops run whole. Its scalar arithmetic, memory
// and BLAS instructions are files of their own beside it (tinytc-reference-scalars.ts, -memory.ts,
// -blas.ts), as are v0.4's number types (-numbers.ts) and the lockstep scheduler of parallel regions (-spmd.ts).
import type {
  CoopmatrixType,
  Func,
  Inst,
  IrType,
  MemrefType,
  Operand,
  Region,
  ScalarTypeName,
} from '../../src/frontend/tinytc/ast.js';
import { varName } from '../../src/frontend/tinytc/calling-convention.js';
import { runBlas } from './tinytc-reference-blas.js';
import {
  type GroupMem,
  type Mem,
  type RefMemref,
  allocate,
  readElement,
  toMem,
  write,
} from './tinytc-reference-memory.js';
import { complexAtomicNext } from './tinytc-reference-numbers.js';
import { type Scalar, add, arith, big, compare, subgroupCombine, wrap } from './tinytc-reference-scalars.js';
import { type SyncRequest, runLockstep } from './tinytc-reference-spmd.js';

export type { RefMemref } from './tinytc-reference-memory.js';
export { type Scalar, wrap } from './tinytc-reference-scalars.js';

/** A work-item's share of a cooperative matrix: its components, in tinytc's order (coopmatrix-layout.ts). */
type Components = readonly Scalar[];

type Value = Scalar | Mem | GroupMem | Components;

/** The work-group shape a parallel region and the subgroup built-ins see (tinytc v0.4). */
export interface SpmdLaunch {
  readonly wg: readonly [number, number];
  /** Subgroups tile the work-group's first axis: wg[0] / subgroupSize of them, then its second. */
  readonly subgroupSize: number;
}

const st = (t: IrType) => (t as { name: ScalarTypeName }).name;

class Run {
  /** The values in scope: in a parallel region, the running work-item's own (tinytc-reference-spmd.ts). */
  private values = new Map<string, Value>();
  /** The work-item running a parallel region (x, y), null outside one. */
  private local: [number, number] | null = null;

  constructor(
    private readonly f: Func,
    args: Readonly<Record<string, unknown>>,
    /** The work-group's id and the group counts along x, y and z (v0.3's batch is the third axis). */
    private readonly groupIds: readonly [number, number, number],
    private readonly groupCounts: readonly [number, number, number],
    private readonly launch: SpmdLaunch,
  ) {
    f.params.forEach((p) => {
      const v = args[varName(p.name)];
      if (p.type.kind === 'scalar') this.values.set(p.name, wrap(p.type.name, v as Scalar));
      else if (p.type.kind === 'memref') this.values.set(p.name, toMem(v as RefMemref, p.type));
      else if (p.type.kind === 'group') {
        const g = v as { group: RefMemref[]; offset?: number };
        const t = p.type;
        this.values.set(p.name, { members: g.group.map((m) => toMem(m, t.memref)), offset: t.offset ?? g.offset ?? 0 });
      }
    });
  }

  run(): void {
    this.region(this.f.body);
  }

  private scalar(o: Operand, t: ScalarTypeName): Scalar {
    if (o.kind === 'value') return this.values.get(o.name) as Scalar;
    return wrap(t, o.kind === 'complex' ? { re: o.re, im: o.im } : o.value);
  }

  private idx(o: Operand): number {
    return Number(this.scalar(o, 'index'));
  }

  private mem(o: Operand): Mem {
    return this.values.get((o as { name: string }).name) as Mem;
  }

  /** An operand of type t: a number, or (always a value) a coopmatrix's components. */
  private operandValue(o: Operand, t: IrType): Value {
    return t.kind === 'coopmatrix'
      ? (this.values.get((o as { name: string }).name) as Components)
      : this.scalar(o, st(t));
  }

  private region(r: Region): Value[] | null {
    for (const inst of r.body) {
      if (inst.op === 'yield') return inst.operands.map((o, i) => this.operandValue(o, inst.types[i].type));
      this.inst(inst);
    }
    return null;
  }

  private set(inst: Inst, v: Value): void {
    this.values.set(inst.results[0].name, v);
  }

  private inst(inst: Inst): void {
    switch (inst.op) {
      case 'alloca': {
        const t = inst.type.type as MemrefType;
        const n = 1 + t.shape.reduce<number>((a, e, i) => a + (e! - 1) * t.stride[i]!, 0);
        this.set(inst, {
          data: allocate(t.element, n),
          base: 0,
          shape: t.shape as number[],
          stride: t.stride as number[],
          element: t.element,
        });
        return;
      }
      case 'arith': {
        const t = st(inst.type.type);
        this.set(
          inst,
          arith(inst.fn, t, this.scalar(inst.operands[0], t), inst.operands[1] ? this.scalar(inst.operands[1], t) : 0),
        );
        return;
      }
      case 'cmp': {
        const t = st(inst.type.type);
        this.set(inst, compare(inst.fn, this.scalar(inst.operands[0], t), this.scalar(inst.operands[1], t)));
        return;
      }
      case 'cast': {
        const v = this.scalar(inst.operand, st(inst.from.type));
        this.set(inst, wrap(st(inst.to.type), v));
        return;
      }
      case 'load': {
        const src = this.values.get((inst.operand as { name: string }).name)!;
        if (inst.type.type.kind === 'group') {
          const g = src as GroupMem;
          const m = g.members[this.idx(inst.indices[0])];
          this.set(inst, { ...m, base: m.base + g.offset });
          return;
        }
        const m = src as Mem;
        this.set(
          inst,
          readElement(
            m,
            inst.indices.map((o) => this.idx(o)),
          ),
        );
        return;
      }
      case 'store': {
        const m = this.mem(inst.operand);
        write(
          m,
          inst.indices.map((o) => this.idx(o)),
          this.scalar(inst.value, m.element),
        );
        return;
      }
      case 'size': {
        // A group's size (v0.4) is its member count.
        const v = this.values.get((inst.operand as { name: string }).name)!;
        const group = inst.type.type.kind === 'group';
        this.set(inst, BigInt(group ? (v as GroupMem).members.length : (v as Mem).shape[inst.mode]));
        return;
      }
      case 'subview': {
        const m = this.mem(inst.operand);
        let base = m.base;
        const shape: number[] = [];
        const stride: number[] = [];
        inst.slices.forEach((s, k) => {
          if (s.kind === 'index') base += this.idx(s.index) * m.stride[k];
          else if (s.kind === 'all') {
            shape.push(m.shape[k]);
            stride.push(m.stride[k]);
          } else {
            const off = this.idx(s.offset);
            base += off * m.stride[k];
            shape.push(s.size ? this.idx(s.size) : m.shape[k] - off);
            stride.push(m.stride[k]);
          }
        });
        this.set(inst, { ...m, base, shape, stride });
        return;
      }
      case 'expand': {
        const m = this.mem(inst.operand);
        const given = inst.shape.map((o, i) => (inst.shapeDynamic[i] ? null : this.idx(o)));
        const known = given.reduce<number>((a, e) => a * (e ?? 1), 1);
        const ext = given.map((e) => e ?? m.shape[inst.mode] / known);
        const strides: number[] = [];
        let s = m.stride[inst.mode];
        for (const e of ext) {
          strides.push(s);
          s *= e;
        }
        this.set(inst, {
          ...m,
          shape: [...m.shape.slice(0, inst.mode), ...ext, ...m.shape.slice(inst.mode + 1)],
          stride: [...m.stride.slice(0, inst.mode), ...strides, ...m.stride.slice(inst.mode + 1)],
        });
        return;
      }
      case 'fuse': {
        const m = this.mem(inst.operand);
        const e = m.shape.slice(inst.from, inst.to + 1).reduce((a, b) => a * b, 1);
        this.set(inst, {
          ...m,
          shape: [...m.shape.slice(0, inst.from), e, ...m.shape.slice(inst.to + 1)],
          stride: [...m.stride.slice(0, inst.from), m.stride[inst.from], ...m.stride.slice(inst.to + 1)],
        });
        return;
      }
      case 'group_id':
        this.set(inst, BigInt(this.groupIds[inst.axis ?? 2]));
        return;
      case 'group_size':
        this.set(inst, BigInt(this.groupCounts[inst.axis ?? 2]));
        return;
      // tinytc v0.4's parallel regions: each work-item runs the body in turn (its atomics in that order) up to
      // its next barrier or subgroup instruction, where it waits for the others (tinytc-reference-spmd.ts).
      case 'parallel': {
        const [w0, w1] = this.launch.wg;
        const sgs = this.launch.subgroupSize;
        const across = Math.max(1, Math.floor(w0 / sgs));
        const outer = this.values;
        const items = [];
        for (let l1 = 0; l1 < w1; l1++)
          for (let l0 = 0; l0 < w0; l0++) {
            const own = { local: [l0, l1] as [number, number], values: new Map(outer) };
            const run = () => this.spmdRegion(inst.body);
            items.push({ subgroup: Math.floor(l0 / sgs) + across * l1, lane: l0 % sgs, run, own });
          }
        runLockstep<Scalar, (typeof items)[number]>(items, (it) => {
          this.values = it.own.values;
          this.local = it.own.local;
        });
        this.values = outer;
        this.local = null;
        return;
      }
      case 'subgroup_operation':
        throw new Error(`reference: ${inst.op} outside a parallel region`);
      case 'associated':
        // The runtimes bind every memref and group: never null.
        this.set(inst, true);
        return;
      // The interpreter runs one work-item's replicated code for all: a barrier outside parallel waits for none.
      case 'barrier':
        return;
      case 'subgroup_builtin':
        this.set(inst, BigInt(this.subgroup(inst.fn)));
        return;
      case 'subgroup_broadcast':
        throw new Error('reference: subgroup_broadcast outside a parallel region');
      case 'atomic_load':
      case 'atomic_update': {
        const m = this.mem(inst.operand);
        const at = inst.indices.map((o) => this.idx(o));
        const old = readElement(m, at);
        if (inst.op === 'atomic_update') {
          const v = this.scalar(inst.value, m.element);
          const t = m.element;
          const next =
            inst.fn === 'store'
              ? v
              : t === 'c32' || t === 'c64'
                ? complexAtomicNext(inst.fn, t, old, v)
                : inst.fn === 'add'
                  ? wrap(m.element, add(m.element, old, v))
                  : (inst.fn === 'max' ? compare('gt', v, old) : compare('lt', v, old))
                    ? v
                    : old;
          write(m, at, next);
          if (inst.fn === 'store') return;
        }
        this.set(inst, old);
        return;
      }
      case 'if': {
        const c = this.scalar(inst.condition, 'i1');
        const r = c ? this.region(inst.then) : inst.else ? this.region(inst.else) : null;
        inst.results.forEach((res, i) => this.values.set(res.name, r![i]));
        return;
      }
      case 'yield':
        return;
      case 'for':
      case 'foreach': {
        const t = inst.loopType ? st(inst.loopType.type) : 'index';
        const from = big(this.scalar(inst.from, t));
        const to = big(this.scalar(inst.to, t));
        const step = inst.step ? big(this.scalar(inst.step, t)) : 1n;
        // Loop-carried values (numbers or coopmatrices): the initial ones, then what each iteration yields.
        const carried = inst.carried ?? [];
        let now: Value[] = carried.map((c) => this.operandValue(c.init, c.type.type));
        for (let i = from; i < to; i += step) {
          this.values.set(inst.variable.name, wrap(t, i));
          carried.forEach((c, k) => this.values.set(c.name, now[k]));
          const next = this.region(inst.body);
          if (carried.length) now = next!;
        }
        inst.results.forEach((r, k) => this.values.set(r.name, now[k]));
        return;
      }
      // tinytc v0.4's cooperative matrices: a work-item's components, read and replaced one at a time.
      case 'coopmatrix_construct': {
        const c = inst.type.type as CoopmatrixType;
        const x = inst.operand ? this.scalar(inst.operand, c.component) : wrap(c.component, 0);
        this.set(inst, new Array<Scalar>(c.layout.length).fill(x));
        return;
      }
      case 'coopmatrix_extract':
        this.set(inst, (this.values.get((inst.operand as { name: string }).name) as Components)[inst.index]);
        return;
      case 'coopmatrix_insert': {
        const c = inst.type.type as CoopmatrixType;
        const m = [...(this.values.get((inst.operand as { name: string }).name) as Components)];
        m[inst.index] = this.scalar(inst.value, c.component);
        this.set(inst, m);
        return;
      }
      case 'blas':
        runBlas(
          inst,
          (o, t) => this.scalar(o, t),
          (o) => this.mem(o),
        );
        return;
    }
  }

  /**
   * A parallel region as one work-item runs it: the instructions that need the other work-items (barrier,
   * subgroup operations and broadcast) wait for them; if and for hold them in their regions; the rest run as outside.
   */
  private *spmdRegion(r: Region): Generator<SyncRequest<Scalar>, Scalar[] | null, Scalar | undefined> {
    const st = (t: IrType) => (t as { name: ScalarTypeName }).name;
    for (const inst of r.body) {
      switch (inst.op) {
        case 'yield':
          return inst.operands.map((o, i) => this.scalar(o, st(inst.types[i].type)));
        case 'barrier':
          yield { kind: 'barrier', site: inst };
          break;
        case 'subgroup_operation': {
          const t = st(inst.type.type);
          const value = this.scalar(inst.operand, t);
          const combine = (vs: readonly Scalar[]) => subgroupCombine(inst.group, inst.fn, t, vs);
          this.set(inst, (yield { kind: 'subgroup', site: inst, value, combine })!);
          break;
        }
        case 'subgroup_broadcast': {
          const t = st(inst.type.type);
          const lane = Number(this.scalar(inst.index, 'i32'));
          const combine = (vs: readonly Scalar[]) => vs.map(() => vs[lane]);
          this.set(inst, (yield { kind: 'subgroup', site: inst, value: this.scalar(inst.operand, t), combine })!);
          break;
        }
        case 'if': {
          const c = this.scalar(inst.condition, 'i1');
          const res = c ? yield* this.spmdRegion(inst.then) : inst.else ? yield* this.spmdRegion(inst.else) : null;
          inst.results.forEach((x, i) => this.values.set(x.name, res![i]));
          break;
        }
        case 'for': {
          const t = inst.loopType ? st(inst.loopType.type) : 'index';
          const from = big(this.scalar(inst.from, t));
          const to = big(this.scalar(inst.to, t));
          const step = inst.step ? big(this.scalar(inst.step, t)) : 1n;
          for (let i = from; i < to; i += step) {
            this.values.set(inst.variable.name, wrap(t, i));
            yield* this.spmdRegion(inst.body);
          }
          break;
        }
        default:
          this.inst(inst);
      }
    }
    return null;
  }

  private subgroup(fn: Extract<Inst, { op: 'subgroup_builtin' }>['fn']): number {
    const { wg, subgroupSize: sgs } = this.launch;
    const across = Math.max(1, Math.floor(wg[0] / sgs));
    if (fn === 'num_subgroups.x') return across;
    if (fn === 'num_subgroups.y') return wg[1];
    if (fn === 'subgroup_size') return sgs;
    if (!this.local) throw new Error(`reference: ${fn} outside a parallel region`);
    const [l0, l1] = this.local;
    const id = Math.floor(l0 / sgs) + across * l1;
    if (fn === 'subgroup_linear_id') return id;
    if (fn === 'subgroup_local_id') return l0 % sgs;
    return fn === 'subgroup_id.x' ? id % across : Math.floor(id / across);
  }
}

/**
 * Runs a function for `howmany` work-groups on the given arguments (host arrays are updated in
 * place): a number is v0.3's batch along the third axis; [x, y, z] (tinytc v0.4) groups along each,
 * x fastest. `launch` is the work-group shape parallel regions and subgroup built-ins see.
 */
export function runReference(
  f: Func,
  args: Readonly<Record<string, unknown>>,
  howmany: number | readonly [number, number, number] = 1,
  launch: SpmdLaunch = { wg: [1, 1], subgroupSize: 1 },
): void {
  const counts: [number, number, number] = typeof howmany === 'number' ? [1, 1, howmany] : [...howmany];
  for (let z = 0; z < counts[2]; z++)
    for (let y = 0; y < counts[1]; y++)
      for (let x = 0; x < counts[0]; x++) new Run(f, args, [x, y, z], counts, launch).run();
}
