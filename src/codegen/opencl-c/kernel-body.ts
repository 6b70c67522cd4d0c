import { assertNever } from '../../assert-never.js';
import type { Inst, Region, ScalarTypeName } from '../../frontend/tinytc/ast.js';
import { varName } from '../../frontend/tinytc/calling-convention.js';
import type { Fence } from '../barriers.js';
import { C_TYPE, isWide } from './c-scalars.js';
import { BodyScope, type KernelBody } from './body-scope.js';
import { blasC } from './blas-call.js';
import { allocaC, expandC, fuseC, loadC, sizeC, storeC, subviewC } from './memref-instructions.js';
import { arithC, castC, cmpC } from './scalar-instructions.js';
import { elementAt } from './views.js';
import { atomicC, subgroupBuiltinC } from './spmd.js';
import { explicitBarrierC, subgroupOperationC } from './subgroup-operations.js';
import { bindSlots, cSlotExprs, cSlots, coopmatrixC, declareSlots } from './coopmatrix.js';

export type { KernelBody } from './body-scope.js';

/** OpenCL C's spelling of each barrier's memories. */
const C_FENCE: Record<Fence, string> = {
  global: 'CLK_GLOBAL_MEM_FENCE',
  local: 'CLK_LOCAL_MEM_FENCE',
  both: 'CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE',
};

/**
 * The statements of one tinytc function as OpenCL C: replicated instructions become plain C
 * statements every work-item runs alike; collective ones (alloca, foreach and the BLAS-like
 * instructions) split their work over the work-group; barriers go where collective accesses
 * conflict. Views keep static extents and strides as literals. This file holds the switch over
 * instructions and the structured control flow (regions, if, yield, loops); the value helpers are in
 * body-scope.ts, the instruction families in scalar-instructions.ts, memref-instructions.ts and blas-call.ts.
 */
export class KernelBodyEmitter extends BodyScope {
  emit(): KernelBody {
    this.bindParams();
    this.region(this.k.func.body);
    if (this.out.length === 0 && this.hoisted.length === 0) return { lines: [], origins: [] };
    return {
      lines: [...this.hoisted, ...this.lidLines, ...this.out],
      origins: [...this.hoistedAt, ...this.lidLines.map(() => null), ...this.outAt],
    };
  }

  private region(r: Region): void {
    for (const inst of r.body) {
      const fence = this.k.barriers.get(inst);
      if (fence) this.line(`barrier(${C_FENCE[fence]});`);
      this.inst(inst);
    }
  }

  private block(head: string, r: Region, prologue: string[] = []): void {
    this.line(`${head} {`);
    this.depth++;
    for (const l of prologue) this.line(l);
    this.region(r);
    this.depth--;
  }

  private inst(inst: Inst): void {
    const outer = this.at;
    this.at = inst.span;
    try {
      this.instruction(inst);
    } finally {
      this.at = outer;
    }
  }

  private instruction(inst: Inst): void {
    const result = inst.results[0]?.name;
    switch (inst.op) {
      case 'alloca':
        allocaC(this, inst, result!);
        return;
      case 'arith':
        arithC(this, inst, result!);
        return;
      case 'cmp':
        cmpC(this, inst, result!);
        return;
      case 'cast':
        castC(this, inst, result!);
        return;
      case 'load':
        loadC(this, inst, result!);
        return;
      case 'store':
        storeC(this, inst);
        return;
      case 'size':
        sizeC(this, inst, result!);
        return;
      case 'subview':
        subviewC(this, inst, result!);
        return;
      case 'expand':
        expandC(this, inst, result!);
        return;
      case 'fuse':
        fuseC(this, inst, result!);
        return;
      // v0.3's batch axis is the third, launched with one work-item along it: the global id is the group's.
      case 'group_id':
        this.declare(
          result!,
          'long',
          inst.axis === undefined ? 'get_global_id(2)' : `get_group_id(${inst.axis})`,
          'index',
        );
        return;
      case 'group_size':
        this.declare(
          result!,
          'long',
          inst.axis === undefined ? 'get_global_size(2)' : `get_num_groups(${inst.axis})`,
          'index',
        );
        return;
      // tinytc v0.4's parallel regions and per-work-item instructions (spmd.ts).
      case 'parallel':
        this.region(inst.body);
        return;
      case 'associated': {
        const v = this.value(inst.operand);
        const ptr = v.kind === 'group' ? v.table : this.view(inst.operand).ptr;
        this.declare(result!, 'bool', `${ptr} != 0`, 'i1');
        return;
      }
      case 'subgroup_builtin':
        this.declare(result!, 'int', subgroupBuiltinC(inst.fn, this.wg, this.k.func.subgroupSize), 'i32');
        return;
      case 'subgroup_broadcast': {
        const t = (inst.type.type as { name: ScalarTypeName }).name;
        const lane = `(uint)${this.scalar(inst.index, 'i32')}`;
        this.declare(result!, C_TYPE[t], `sub_group_broadcast(${this.scalar(inst.operand, t)}, ${lane})`, t);
        return;
      }
      case 'barrier':
        this.line(explicitBarrierC(inst.global, inst.local));
        return;
      case 'subgroup_operation': {
        const t = (inst.type.type as { name: ScalarTypeName }).name;
        const expr = subgroupOperationC(inst.group, inst.fn, t, this.scalar(inst.operand, t));
        this.declare(result!, C_TYPE[t], expr, t);
        return;
      }
      case 'atomic_load':
      case 'atomic_update': {
        const v = this.view(inst.operand);
        const fn = inst.op === 'atomic_load' ? 'load' : inst.fn;
        const value = inst.op === 'atomic_update' ? this.scalar(inst.value, v.element) : null;
        const at = elementAt(
          v,
          inst.indices.map((o) => this.index(o)),
        );
        const a = atomicC(v.element, v.space, fn, at, value, inst.order, (b) => this.names.fresh(b));
        if (a.int64) this.atomics.needsInt64 = true;
        for (const l of a.lines) this.line(l);
        if (result && a.result) this.values.set(result, { kind: 'scalar', expr: a.result, type: v.element });
        return;
      }
      case 'if': {
        // One C variable per result, or per component of a coopmatrix result (coopmatrix.ts).
        const rts = inst.resultTypes.map((t) => t.type);
        const slots = inst.results.map((r, i) => declareSlots(this, r.name, rts[i]));
        this.yields.push({ names: slots.flat(), types: rts.flatMap(cSlots) });
        this.block(`if (${this.scalar(inst.condition, 'i1')})`, inst.then);
        if (inst.else) {
          this.line('} else {');
          this.depth++;
          this.region(inst.else);
          this.depth--;
        }
        this.line('}');
        this.yields.pop();
        inst.results.forEach((r, i) => bindSlots(this, r.name, rts[i], slots[i]));
        return;
      }
      case 'yield': {
        const y = this.yields[this.yields.length - 1];
        const values = inst.operands.flatMap((o, i) => cSlotExprs(this, o, inst.types[i].type));
        // A loop's yield may read the variables it assigns (`yield %b, %a` swaps): every value is read before any is set.
        const read =
          y.loop && values.length > 1
            ? values.map((v, i) => this.temporary(`${y.names[i]}_next`, C_TYPE[y.types[i]], v))
            : values;
        read.forEach((v, i) => this.line(`${y.names[i]} = ${v};`));
        return;
      }
      case 'for':
      case 'foreach':
        this.loop(inst);
        return;
      case 'blas':
        blasC(this, inst);
        return;
      case 'coopmatrix_construct':
      case 'coopmatrix_extract':
      case 'coopmatrix_insert':
        coopmatrixC(this, inst, result!);
        return;
      default:
        assertNever(inst);
    }
  }

  private loop(inst: Extract<Inst, { op: 'for' | 'foreach' }>): void {
    const t = inst.loopType ? (inst.loopType.type as { name: ScalarTypeName }).name : 'index';
    const from = this.scalar(inst.from, t);
    const to = this.scalar(inst.to, t);
    const spread = inst.op === 'foreach';
    const step = spread ? String(this.wg[0] * this.wg[1]) : inst.step ? this.scalar(inst.step, t) : '1';
    const start = spread ? `${from} + ${this.ctx.lid}` : from;
    // Loop-carried values live in variables declared before the loop: the body reads them, its yield
    // sets them, the results are their last values.
    const carried = inst.carried ?? [];
    const slots = carried.map((c) => {
      const vars = declareSlots(this, c.name, c.type.type, cSlotExprs(this, c.init, c.type.type));
      bindSlots(this, c.name, c.type.type, vars);
      return vars;
    });
    if (carried.length)
      this.yields.push({ names: slots.flat(), types: carried.flatMap((c) => cSlots(c.type.type)), loop: true });
    const v = this.names.fresh(varName(inst.variable.name));
    this.values.set(inst.variable.name, { kind: 'scalar', expr: v, type: t });
    if (isWide(t)) {
      this.block(`for (long ${v} = ${start}; ${v} < ${to}; ${v} += ${step})`, inst.body);
    } else {
      // Narrow loop types count in long, so the last step cannot wrap around.
      const k = this.names.internal('k');
      this.block(`for (long ${k} = (long)${start}; ${k} < (long)${to}; ${k} += (long)${step})`, inst.body, [
        `const ${C_TYPE[t]} ${v} = (${C_TYPE[t]})${k};`,
      ]);
    }
    this.line('}');
    if (carried.length) this.yields.pop();
    inst.results.forEach((r, i) => bindSlots(this, r.name, carried[i].type.type, slots[i]));
  }
}
