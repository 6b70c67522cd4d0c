import { assertNever } from '../../assert-never.js';
import { type Inst, instructions, type Region, type ScalarTypeName } from '../../frontend/tinytc/ast.js';
import type { LoweredKernel } from '../lowered.js';
import { Op, Scope } from '../../emit/spirv/spec.js';
import { type BodyEnv, BodyScope } from './body-scope.js';
import { blasS } from './blas-call.js';
import type { Gen, SExt } from './gen.js';
import { allocaS, expandS, fuseS, loadS, sizeS, storeS, subviewS } from './memref-instructions.js';
import { arithS, castS, cmpS } from './scalar-instructions.js';
import * as spmd from './spmd.js';
import { explicitBarrier, subgroupOperation } from './subgroup-operations.js';
import { coopmatrixS, valueType } from './coopmatrix-instructions.js';

/** A kernel's body (nothing for an empty one), its built-ins read once at the top, where they dominate every use. */
export function emitKernelBody(g: Gen, k: LoweredKernel, env: BodyEnv): void {
  const declares = env.flavour.constants === 'declared' && (k.func.body.constants?.length ?? 0) > 0;
  if (!k.func.body.body.length && !declares) return;
  for (const inst of instructions(k.func.body)) {
    if (inst.op === 'group_id') env.builtin('WorkgroupId', inst.axis ?? 2);
    if (inst.op === 'group_size') env.builtin('NumWorkgroups', inst.axis ?? 2);
  }
  new SpirvBodyEmitter(g, k, env).emit();
}

/** The subgroup built-ins' view of a kernel. */
const subgroupEnv = (k: LoweredKernel, env: BodyEnv): spmd.SubgroupEnv => ({
  read: (name) => env.scalarBuiltin(name),
  wg: k.wg,
  subgroupSize: k.func.subgroupSize,
});

/**
 * One tinytc function's body as SPIR-V, with the OpenCL C backend's decisions: the same barrier
 * placement, dope-vector rules, GEMM tiling and atomic modes; replicated instructions run alike in
 * every invocation, collective ones split over the work-group, a store outside foreach is done by
 * invocation 0.
 *
 * This file holds the switch over instructions and the structured control flow (regions, if, yield,
 * loops); the value helpers are in body-scope.ts, the instruction families in scalar-instructions.ts,
 * memref-instructions.ts and blas-call.ts.
 */
export class SpirvBodyEmitter extends BodyScope {
  emit(): void {
    this.stack();
    this.bindParams();
    this.region(this.k.func.body);
  }

  private region(r: Region): void {
    r.body.forEach((inst, i) => {
      this.declareConstants(r, i);
      const fence = this.k.barriers.get(inst);
      if (fence) this.barrier(fence);
      this.inst(inst);
    });
    this.declareConstants(r, r.body.length);
  }

  /** The v0.4 `constant`s that stood before instruction `at`, made there where the flavour declares them. */
  private declareConstants(r: Region, at: number): void {
    if (this.env.flavour.constants !== 'declared') return;
    for (const c of r.constants ?? []) if (c.before === at) this.scalar(c.value, c.type);
  }

  private inst(inst: Inst): void {
    const g = this.g;
    const result = inst.results[0]?.name;
    switch (inst.op) {
      case 'alloca':
        allocaS(this, inst, result!);
        return;
      case 'arith':
        this.define(result!, arithS(this, inst), (this.types.get(result!) as { name: ScalarTypeName }).name);
        return;
      case 'cmp':
        this.define(result!, cmpS(this, inst), 'i1');
        return;
      case 'cast':
        castS(this, inst, result!);
        return;
      case 'load':
        loadS(this, inst, result!);
        return;
      case 'store':
        storeS(this, inst);
        return;
      case 'size':
        sizeS(this, inst, result!);
        return;
      case 'subview':
        subviewS(this, inst, result!);
        return;
      case 'expand':
        expandS(this, inst, result!);
        return;
      case 'fuse':
        fuseS(this, inst, result!);
        return;
      case 'group_id':
        this.define(result!, this.env.builtin('WorkgroupId', inst.axis ?? 2).id, 'index');
        return;
      case 'group_size':
        this.define(result!, this.env.builtin('NumWorkgroups', inst.axis ?? 2).id, 'index');
        return;
      // tinytc v0.4's parallel regions and per-work-item instructions (spmd.ts).
      case 'parallel':
        this.region(inst.body);
        return;
      case 'associated': {
        const v = this.value(inst.operand);
        const base = v.kind === 'memref' ? v.view.base : null;
        const table = v.kind === 'group' ? v.table : null;
        const pointer =
          base?.kind === 'pointer'
            ? { ptr: base.ptr }
            : base?.kind === 'address'
              ? { addr: base.addr }
              : table && 'ptr' in table
                ? { ptr: table.ptr }
                : table && 'addr' in table
                  ? { addr: table.addr }
                  : null;
        this.define(result!, spmd.associated(g, pointer), 'i1');
        return;
      }
      case 'subgroup_builtin':
        this.define(result!, spmd.subgroupBuiltin(g, subgroupEnv(this.k, this.env), inst.fn), 'i32');
        return;
      case 'subgroup_broadcast': {
        const t = (inst.type.type as { name: ScalarTypeName }).name;
        const lane = this.scalar(inst.index, 'i32');
        this.define(result!, spmd.subgroupBroadcast(g, t, this.scalar(inst.operand, t), lane), t);
        return;
      }
      case 'barrier':
        explicitBarrier(g, inst.global, inst.local);
        return;
      case 'subgroup_operation': {
        const t = (inst.type.type as { name: ScalarTypeName }).name;
        this.define(result!, subgroupOperation(g, inst.group, inst.fn, t, this.scalar(inst.operand, t)), t);
        return;
      }
      case 'atomic_load':
      case 'atomic_update': {
        const v = this.view(inst.operand);
        const fn = inst.op === 'atomic_load' ? 'load' : inst.fn;
        const value = inst.op === 'atomic_update' ? this.scalar(inst.value, v.element) : null;
        const indices = inst.indices.map((o) => this.index(o));
        const r = spmd.atomicAccess(g, v, indices, fn, value, inst.order);
        if (result && r !== undefined) this.define(result, r, v.element);
        return;
      }
      case 'if': {
        const ts = inst.resultTypes.map((t) => valueType(t.type));
        const vars = ts.map((t) => g.variable(t));
        this.yields.push({ vars, types: ts });
        const otherwise = inst.else;
        g.f.ifThen(
          this.scalar(inst.condition, 'i1'),
          () => this.region(inst.then),
          otherwise ? () => this.region(otherwise) : undefined,
        );
        this.yields.pop();
        inst.results.forEach((r, i) => this.define(r.name, vars[i].get(), ts[i]));
        return;
      }
      case 'yield': {
        const y = this.yields[this.yields.length - 1];
        inst.operands.forEach((o, i) => y.vars[i].set(this.scalar(o, y.types[i])));
        return;
      }
      case 'for':
      case 'foreach':
        this.loop(inst);
        return;
      case 'blas':
        blasS(this, inst);
        return;
      case 'coopmatrix_construct':
      case 'coopmatrix_extract':
      case 'coopmatrix_insert':
        coopmatrixS(this, inst, result!);
        return;
      default:
        assertNever(inst);
    }
  }

  private loop(inst: Extract<Inst, { op: 'for' | 'foreach' }>): void {
    const g = this.g;
    const t = inst.loopType ? (inst.loopType.type as { name: ScalarTypeName }).name : 'index';
    // Every loop counts in the index type, so the last step of a narrow one cannot wrap around.
    const widen = (x: number) => this.g.convert(x, t, 'index');
    const from: SExt = { id: widen(this.scalar(inst.from, t)) };
    const to: SExt = { id: widen(this.scalar(inst.to, t)) };
    const spread = inst.op === 'foreach';
    const step: SExt = spread ? this.wg[0] * this.wg[1] : inst.step ? { id: widen(this.scalar(inst.step, t)) } : 1;
    const start = spread ? g.ext.add(from, this.ctx.lid) : from;
    // Loop-carried values live in Function variables (as an if's results do): set before the loop,
    // read at the top of each iteration, set by the body's yield.
    const carried = inst.carried ?? [];
    const ct = carried.map((c) => valueType(c.type.type));
    const vars = carried.map((c, i) => g.variable(ct[i], this.scalar(c.init, ct[i])));
    if (carried.length) this.yields.push({ vars, types: ct });
    g.forIndex(start, to, step, (k) => {
      this.define(inst.variable.name, this.g.convert(k.id, 'index', t), t);
      carried.forEach((c, i) => this.define(c.name, vars[i].get(), ct[i]));
      this.region(inst.body);
    });
    if (carried.length) this.yields.pop();
    inst.results.forEach((r, i) => this.define(r.name, vars[i].get(), ct[i]));
  }
}
