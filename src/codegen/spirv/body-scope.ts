import {
  instructions,
  type MemrefType,
  type Operand,
  type ScalarTypeName,
  isFloating,
} from '../../frontend/tinytc/ast.js';
import type { ValueTypes } from '../../frontend/tinytc/check.js';
import type { CoopmatrixType } from '../../frontend/tinytc/coopmatrix-layout.js';
import { Op, Scope } from '../../emit/spirv/spec.js';
import type { Fence } from '../barriers.js';
import type { LoweredKernel, SlotExt } from '../lowered.js';
import type { BlasPolicy } from '../blas-policy.js';
import type { SCollectiveContext, SScalar } from './collective.js';
import type { Base, Dope, Gen, SExt, SView, Sym } from './gen.js';
import type { SpirvFlavour } from './flavour.js';
import { STACK_ALIGNMENT, type StackLayout, stackLayout } from './stack.js';
import type { ScalarBuiltinName } from './builtins.js';

/** What an IR value is in the module being built: an id, a view of memory, or a group's tables. */
export type Value =
  | { readonly kind: 'scalar'; readonly id: number; readonly type: ScalarTypeName }
  /** A work-item's share of a cooperative matrix (coopmatrix.ts says how it is stored). */
  | { readonly kind: 'coopmatrix'; readonly id: number; readonly type: CoopmatrixType }
  | { readonly kind: 'memref'; readonly view: SView }
  | {
      readonly kind: 'group';
      readonly table: Table;
      readonly memref: MemrefType;
      readonly shape: readonly (number | Table)[];
      readonly stride: readonly (number | Table)[];
      readonly offset: SExt;
      /** The member count (v0.4's groups; v0.3's have none). */
      readonly size?: SExt;
    };

/**
 * A table of 64-bit entries (group members' addresses, shapes, strides): a storage buffer, at a
 * buffer address, or an OpenCL kernel's pointer (to pointers, for the members' data).
 */
export type Table = { readonly variable: number } | { readonly addr: number } | { readonly ptr: number };

/** What the module gives a kernel body: its arguments' resources and the built-ins. */
export interface BodyEnv {
  /** The storage-buffer variable of a buffer slot (`{ T data[]; }`), or undefined when the slot is an address among the PODs. */
  buffer(slot: string): number | undefined;
  /** A buffer variable's data as a runtime array of `count`-component vectors: a second variable at its set and binding. */
  vectorBuffer(variable: number, t: ScalarTypeName, count: number): number;
  /** An OpenCL kernel's pointer parameter of a data or table slot (the Vulkan module has none: undefined). */
  pointer?(slot: string): number | undefined;
  /** The value of a POD slot, loaded at the top of the kernel. */
  pod(slot: string): number;
  /** Component `axis` of a uvec3 built-in, as an index. */
  builtin(name: 'LocalInvocationId' | 'WorkgroupId' | 'NumWorkgroups', axis: number): Sym;
  /** A 32-bit subgroup built-in (tinytc v0.4's subgroup built-ins). */
  scalarBuiltin(name: ScalarBuiltinName): number;
  /** A module-scope work-group array of n elements (floats stored as bits when `bits`). */
  workgroupArray(t: ScalarTypeName, n: number, bits: boolean, lanes?: number): number;
  /** Whether the memory rooted at a parameter or alloca stores floats as bits (it takes compare-and-swap loops). */
  bits(root: string): boolean;
  readonly floatAtomicAdd: boolean;
  /** How GEMMs are emitted (the compiled unit's BLAS rule, or the caller's). */
  readonly blas: BlasPolicy;
  /** The dialect: barrier semantics and how remainders are spelled. */
  readonly flavour: SpirvFlavour;
}

/** Whether a kernel reads its local id: to split collective work or a foreach, or to pick the work-item that stores for all. */
function usesLocalId(k: LoweredKernel): boolean {
  for (const inst of instructions(k.func.body))
    if (inst.op === 'blas' || inst.op === 'foreach' || (inst.op === 'store' && k.storeByFirst.has(inst))) return true;
  return false;
}

/**
 * The state of one SPIR-V kernel body being built, shared by the instruction printers: the id or
 * view of each IR value, the variables yields set, the collective context, and the value helpers
 * (operands as ids, views, barriers). The instructions themselves are emitted by `SpirvBodyEmitter`
 * (kernel.ts) and the files it calls.
 */
export class BodyScope {
  readonly values = new Map<string, Value>();
  readonly yields: { vars: { set(x: number): void }[]; types: (ScalarTypeName | CoopmatrixType)[] }[] = [];
  readonly ctx: SCollectiveContext;
  readonly types: ValueTypes;
  readonly wg: readonly [number, number];

  constructor(
    readonly g: Gen,
    readonly k: LoweredKernel,
    readonly env: BodyEnv,
  ) {
    this.types = k.types;
    const wg = (this.wg = k.wg);
    // The local id is read at the top, where it dominates every use, by the kernels that use it
    // (collective instructions, foreach, a store one work-item does for all); tinytc's kernels that
    // use none of them read no LocalInvocationId, and neither do kernarg's.
    const ids = usesLocalId(k)
      ? (() => {
          const lid0 = env.builtin('LocalInvocationId', 0);
          const lid1 = env.builtin('LocalInvocationId', 1);
          return { lid0, lid1, lid: g.ext.add(lid0, g.ext.mul(lid1, wg[0])) as Sym };
        })()
      : null;
    const unread = (): never => {
      throw new Error('kernarg: a kernel body asked for the local id usesLocalId said it does not read');
    };
    this.ctx = {
      g,
      get lid0() {
        return ids ? ids.lid0 : unread();
      },
      get lid1() {
        return ids ? ids.lid1 : unread();
      },
      get lid() {
        return ids ? ids.lid : unread();
      },
      wg,
      floatAtomicAdd: env.floatAtomicAdd,
      blas: env.blas,
      vectorBuffer: env.vectorBuffer,
      workgroupArray: (t, n, lanes = 1) => ({
        base: {
          kind: 'variable',
          sc: 'Workgroup',
          variable: env.workgroupArray(t, n, false, lanes),
          wrapped: false,
          bits: false,
          lanes,
        },
        space: 'local',
        element: t,
        offset: 0,
        shape: [n],
        stride: [1],
      }),
      localBarrier: () => this.barrier('local'),
    };
  }

  barrier(fence: Fence): void {
    const g = this.g;
    g.f.emit(Op.ControlBarrier, g.u32(Scope.Workgroup), g.u32(Scope.Workgroup), g.u32(this.env.flavour.fences[fence]));
  }

  bindParams(): void {
    const ext = (e: SlotExt): SExt => (typeof e === 'number' ? e : { id: this.env.pod(e.slot) });
    const tableOf = (slot: string): Table => {
      const ptr = this.env.pointer?.(slot);
      if (ptr !== undefined) return { ptr };
      const variable = this.env.buffer(slot);
      return variable !== undefined ? { variable } : { addr: this.env.pod(slot) };
    };
    const table = (e: SlotExt): number | Table => (typeof e === 'number' ? e : tableOf(e.slot));
    for (const [name, p] of this.k.params) {
      if (p.kind === 'scalar') {
        const type = (this.types.get(name) as { name: ScalarTypeName }).name;
        // A bool parameter arrives as a uchar, an 8-bit integer (v04/calling-convention.ts): any byte but 0 is true.
        const id = type === 'i1' ? this.g.convert(this.env.pod(p.slot), 'i8', 'i1') : this.env.pod(p.slot);
        this.values.set(name, { kind: 'scalar', id, type });
      } else if (p.kind === 'memref') {
        const ptr = this.env.pointer?.(p.data);
        const variable = this.env.buffer(p.data);
        const base: Base =
          ptr !== undefined
            ? { kind: 'pointer', ptr }
            : variable !== undefined
              ? { kind: 'variable', sc: 'StorageBuffer', variable, wrapped: true, bits: this.env.bits(name) }
              : { kind: 'address', addr: this.env.pod(p.data) };
        const shape = p.shape.map(ext);
        const stride = p.stride.map(ext);
        this.values.set(name, {
          kind: 'memref',
          view: {
            base,
            space: 'global',
            element: p.type.element,
            offset: 0,
            shape,
            stride,
            ...(this.runTimeDope ? { rt: this.g.dope(shape, stride) } : {}),
          },
        });
      } else {
        const group: Extract<Value, { kind: 'group' }> = {
          kind: 'group',
          table: tableOf(p.table),
          memref: p.memref,
          shape: p.shape.map(table),
          stride: p.stride.map(table),
          offset: ext(p.offset),
          ...(p.size !== undefined ? { size: ext(p.size) } : {}),
        };
        // tinytc makes a group's static shapes, strides, size and offset OpConstants with its parameters.
        if (this.runTimeDope)
          for (const e of [
            ...group.shape,
            ...group.stride,
            ...(group.size !== undefined ? [group.size] : []),
            group.offset,
          ])
            if (typeof e === 'number') this.g.idx(e);
        this.values.set(name, group);
      }
    }
  }

  private stackOf?: { readonly variable: number; readonly layout: StackLayout } | null;

  /**
   * The kernel's stack where the flavour keeps one and the kernel has allocas (made on the first call:
   * the body emitter asks first thing, so it is declared before the body's constants, as tinytc's); else null.
   */
  stack(): { readonly variable: number; readonly layout: StackLayout } | null {
    if (this.stackOf !== undefined) return this.stackOf;
    const layout =
      this.env.flavour.alloca === 'stack' ? stackLayout(this.k.func.body, (i) => this.k.allocaElements.get(i)!) : null;
    if (!layout || layout.size === 0) return (this.stackOf = null);
    const b = this.g.b;
    const variable = b.variable(b.typePointer('Workgroup', b.typeArray(this.g.intType(8), layout.size)), 'Workgroup');
    b.decorate(variable, 'Alignment', STACK_ALIGNMENT);
    return (this.stackOf = { variable, layout });
  }

  /** Whether views carry tinytc's run-time dope vector (SpirvFlavour.dopeVector). */
  get runTimeDope(): boolean {
    return this.env.flavour.dopeVector === 'run-time';
  }

  value(o: Operand): Value {
    return this.values.get((o as { name: string }).name)!;
  }

  view(o: Operand): SView {
    return (this.value(o) as Extract<Value, { kind: 'memref' }>).view;
  }

  /** A scalar operand as an id of type t (a coopmatrix operand, always a value, as its id). */
  scalar(o: Operand, t: ScalarTypeName | CoopmatrixType): number {
    if (o.kind === 'value') return (this.value(o) as Extract<Value, { kind: 'scalar' | 'coopmatrix' }>).id;
    if (typeof t !== 'string') throw new Error('kernarg: an immediate coopmatrix operand (the rewrite makes none)');
    if (o.kind === 'complex') return this.g.complexConstant(t as 'c32' | 'c64', o.re, o.im);
    if (o.kind === 'int') return this.g.constant(t, isFloating(t) ? Number(o.value) : o.value);
    return this.g.constant(t, isFloating(t) ? o.value : BigInt(Math.trunc(o.value)));
  }

  /**
   * alpha or beta of a BLAS instruction (IR type t) as an id of type `as`, the C operand's element
   * type: mixed-type operands are converted to it first, as the OpenCL C backend and the reference do.
   */
  scalarArg(o: Operand, t: ScalarTypeName, as: ScalarTypeName): SScalar {
    const id = this.g.convert(this.scalar(o, t), t, as);
    return o.kind === 'value' || o.kind === 'complex' ? { id } : { id, imm: Number(o.value) };
  }

  index(o: Operand): SExt {
    if (o.kind === 'int' && Number.isSafeInteger(Number(o.value))) return Number(o.value);
    return { id: this.scalar(o, 'index') };
  }

  define(name: string, id: number, type: ScalarTypeName | CoopmatrixType): void {
    this.values.set(name, typeof type === 'string' ? { kind: 'scalar', id, type } : { kind: 'coopmatrix', id, type });
  }

  defineView(name: string, parent: SView, offset: SExt, shape: SExt[], stride: SExt[]): void {
    const t = this.types.get(name) as MemrefType;
    // Static entries of the result type are literals, whatever the parent computed.
    this.values.set(name, {
      kind: 'memref',
      view: {
        ...parent,
        offset: this.g.ext.add(parent.offset, offset),
        shape: shape.map((e, j) => t.shape[j] ?? e),
        stride: stride.map((e, j) => t.stride[j] ?? e),
      },
    });
  }

  /**
   * A view with a run-time dope vector (memref-instructions.ts spells it as tinytc does), at `base`
   * where it has a pointer of its own: its folded shape and stride are the result type's static
   * entries, and the run-time ids where the type has none.
   */
  defineRtView(name: string, parent: SView, offset: SExt, rt: Dope, base?: Base): void {
    const t = this.types.get(name) as MemrefType;
    this.values.set(name, {
      kind: 'memref',
      view: {
        ...parent,
        ...(base ? { base } : {}),
        offset: this.g.ext.add(parent.offset, offset),
        shape: rt.shape.map((id, j) => t.shape[j] ?? { id }),
        stride: rt.stride.map((id, j) => t.stride[j] ?? { id }),
        rt,
      },
    });
  }
}
