import { type MemrefType, type Operand, type ScalarTypeName, isFloatType } from '../../frontend/tinytc/ast.js';
import type { ValueTypes } from '../../frontend/tinytc/check.js';
import type { CoopmatrixType } from '../../frontend/tinytc/coopmatrix-layout.js';
import { varName } from '../../frontend/tinytc/calling-convention.js';
import type { Span } from '../../diagnostics/source.js';
import type { AtomicHelpers } from './atomics.js';
import type { LoweredKernel, SlotExt } from '../lowered.js';
import { isV04Number, numberLiteral } from './numbers.js';
import { C_TYPE, floatLiteral, intLiteral } from './c-scalars.js';
import type { BlasPolicy } from '../blas-policy.js';
import type { CollectiveContext, ScalarArg } from './collective.js';
import type { Names } from './names.js';
import { type Ext, type View, extText, pointerType } from './views.js';

/** What an IR value is in the C being printed: an expression, a view of memory, or a group's tables. */
export type Value =
  | { readonly kind: 'scalar'; readonly expr: string; readonly type: ScalarTypeName }
  /** A work-item's share of a cooperative matrix: one C expression per component (coopmatrix.ts). */
  | { readonly kind: 'coopmatrix'; readonly exprs: readonly string[]; readonly type: CoopmatrixType }
  | { readonly kind: 'memref'; readonly view: View }
  | {
      readonly kind: 'group';
      readonly table: string;
      readonly memref: MemrefType;
      readonly shape: readonly Ext[];
      readonly stride: readonly Ext[];
      readonly offset: Ext;
      /** The member count (v0.4's groups; v0.3's have none). */
      readonly size?: Ext;
    };

export interface KernelBody {
  /** Declarations at kernel scope (local arrays), then the statements. */
  readonly lines: readonly string[];
  /** For each line, the IR instruction it was generated from (null: kernarg's own set-up). */
  readonly origins: readonly (Span | null)[];
}

const SIMPLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The state of one OpenCL C kernel body being printed, shared by the instruction printers: the C
 * meaning of each IR value, the lines printed so far with where each came from, and the value
 * helpers (operands as C expressions, fresh variables, views). The instructions themselves are
 * printed by `KernelBodyEmitter` (kernel-body.ts) and the files it calls.
 */
export class BodyScope {
  readonly values = new Map<string, Value>();
  readonly out: string[] = [];
  readonly hoisted: string[] = [];
  /** The instruction being emitted, and where each emitted line came from (build errors map back through them). */
  at: Span | null = null;
  readonly outAt: (Span | null)[] = [];
  readonly hoistedAt: (Span | null)[] = [];
  /** The variables a yield assigns: an if's results, or a loop's carried values (`loop`: the yield may read them). */
  readonly yields: { names: string[]; types: ScalarTypeName[]; loop?: true }[] = [];
  depth = 0;
  readonly ctx: CollectiveContext;
  readonly lidLines: string[];
  readonly types: ValueTypes;
  readonly wg: readonly [number, number];

  constructor(
    readonly k: LoweredKernel,
    readonly names: Names,
    readonly atomics: AtomicHelpers,
    policy: BlasPolicy,
  ) {
    this.types = k.types;
    const wg = (this.wg = k.wg);
    const lid0 = names.internal('lid0');
    const lid1 = names.internal('lid1');
    const lid = names.internal('lid');
    this.lidLines = [
      `const long ${lid0} = get_local_id(0);`,
      `const long ${lid1} = get_local_id(1);`,
      `const long ${lid} = ${lid0} + ${lid1} * ${wg[0]};`,
    ];
    this.ctx = {
      names,
      lid0,
      lid1,
      lid,
      wg,
      hoist: (line) => this.hoist(line),
      atomic: (t, space, mode) => this.atomics.use(t, space, mode, this.names),
      policy,
    };
  }

  line(s: string): void {
    this.out.push('  '.repeat(this.depth) + s);
    this.outAt.push(this.at);
  }

  hoist(s: string): void {
    this.hoisted.push(s);
    this.hoistedAt.push(this.at);
  }

  bindParams(): void {
    const ext = (e: SlotExt): Ext => (typeof e === 'number' ? e : e.slot);
    for (const [name, p] of this.k.params) {
      if (p.kind === 'scalar') {
        const type = (this.types.get(name) as { name: ScalarTypeName }).name;
        // A bool parameter arrives as a uchar (v04/calling-convention.ts): any byte but 0 is true.
        this.values.set(name, { kind: 'scalar', expr: type === 'i1' ? `(${p.slot} != 0)` : p.slot, type });
      } else if (p.kind === 'memref')
        this.values.set(name, {
          kind: 'memref',
          view: {
            ptr: p.data,
            space: 'global',
            element: p.type.element,
            shape: p.shape.map(ext),
            stride: p.stride.map(ext),
          },
        });
      else
        this.values.set(name, {
          kind: 'group',
          table: p.table,
          memref: p.memref,
          shape: p.shape.map(ext),
          stride: p.stride.map(ext),
          offset: ext(p.offset),
          ...(p.size !== undefined ? { size: ext(p.size) } : {}),
        });
    }
  }

  value(o: Operand): Value {
    return this.values.get((o as { name: string }).name)!;
  }

  view(o: Operand): View {
    return (this.value(o) as Extract<Value, { kind: 'memref' }>).view;
  }

  /** A scalar operand as a C expression of type t. */
  scalar(o: Operand, t: ScalarTypeName): string {
    if (o.kind === 'value') return (this.value(o) as Extract<Value, { kind: 'scalar' }>).expr;
    if (o.kind === 'complex' || isV04Number(t)) return numberLiteral(o, t);
    if (o.kind === 'int') return intLiteral(o.value, t);
    return isFloatType(t) ? floatLiteral(o.value, t) : String(o.value);
  }

  /**
   * alpha or beta of a BLAS instruction (IR type t) as a C expression of type `as`, the C operand's
   * element type: a mixed-type operand is cast to it first (the arithmetic is done in C's type).
   */
  scalarArg(o: Operand, t: ScalarTypeName, as: ScalarTypeName): ScalarArg {
    const own = this.scalar(o, t);
    const expr = t === as ? own : `((${C_TYPE[as]})${own})`;
    return o.kind === 'value' || o.kind === 'complex' ? { expr } : { expr, imm: Number(o.value) };
  }

  index(o: Operand): Ext {
    if (o.kind === 'int' && Number.isSafeInteger(Number(o.value))) return Number(o.value);
    return this.scalar(o, 'index');
  }

  declare(irName: string, cType: string, expr: string, type: ScalarTypeName): string {
    const c = this.names.fresh(varName(irName));
    this.line(`${cType} ${c} = ${expr};`);
    this.values.set(irName, { kind: 'scalar', expr: c, type });
    return c;
  }

  /** A C variable of its own holding `expr`, under a fresh name from `base`; no IR value names it. */
  temporary(base: string, cType: string, expr: string): string {
    const c = this.names.fresh(base);
    this.line(`${cType} ${c} = ${expr};`);
    return c;
  }

  /** A run-time extent: kept as it is when it is a literal or a name, else given a name of its own. */
  bind(base: string, e: Ext): Ext {
    if (typeof e === 'number' || SIMPLE.test(e)) return e;
    const c = this.names.fresh(base);
    this.line(`long ${c} = ${e};`);
    return c;
  }

  defineView(irName: string, parent: View, offset: Ext, shape: Ext[], stride: Ext[]): void {
    const t = this.types.get(irName) as MemrefType;
    const base = varName(irName);
    let ptr = parent.ptr;
    if (offset !== 0 || !SIMPLE.test(ptr)) {
      ptr = this.names.fresh(base);
      this.line(
        `${pointerType(parent.space, C_TYPE[parent.element])} ${ptr} = ${parent.ptr}${offset === 0 ? '' : ` + ${extText(offset)}`};`,
      );
    }
    // Static entries of the result type are literals, whatever the parent spelled.
    const sh = shape.map((e, j) => t.shape[j] ?? this.bind(`${base}_shape${j}`, e));
    const st = stride.map((e, j) => t.stride[j] ?? this.bind(`${base}_stride${j}`, e));
    this.values.set(irName, {
      kind: 'memref',
      view: { ptr, space: parent.space, element: parent.element, shape: sh, stride: st },
    });
  }
}
