// Reading a SPIR-V module's types: the scalar names, constants and explicit layouts (Offset,
// ArrayStride, MatrixStride) that both plans read, and the errors a reader raises.
import type { ValueLayout } from '../layout/value-layout.js';
import { SPIR } from '../layout/data-layout.js';
import { type ScalarName, scalar } from '../types/types.js';
import {
  Decoration,
  Malformed,
  MoreDecoration,
  type SpvModule,
  type SpvType,
  decoration,
  memberDecoration,
} from './spirv-module.js';

/** A well-formed module holding what this reader does not read yet (KA7122). */
export class Unsupported {
  constructor(
    readonly entry: string,
    readonly reason: string,
  ) {}
}

/** Nested types deeper than this are refused (a hostile module can make a struct contain itself). */
export const MAX_DEPTH = 64;

const INT_NAMES = {
  8: ['uchar', 'char'],
  16: ['ushort', 'short'],
  32: ['uint', 'int'],
  64: ['ulong', 'long'],
} as const satisfies Record<number, readonly [ScalarName, ScalarName]>;
const FLOAT_NAMES = { 16: 'half', 32: 'float', 64: 'double' } as const satisfies Record<number, ScalarName>;

export class Reader {
  constructor(readonly m: SpvModule) {}

  /** Where an id is defined, for a diagnostic's byte offset (0 when the module never defines it). */
  off(id: number): number {
    return this.m.offsets.get(id) ?? 0;
  }

  /** The type `id`; `from`: the byte offset of the instruction that refers to it (for the diagnostic). */
  type(id: number, at: string, from: number): SpvType {
    const t = this.m.types.get(id);
    if (!t)
      throw new Malformed(
        from,
        `the instruction here refers to type %${id}, which the module does not declare (reading ${at})`,
      );
    return t;
  }

  constant(id: number, at: string): number {
    const v = this.m.constants.get(id);
    if (v === undefined) throw new Malformed(this.off(id), `${at}: array length %${id} is not an integer constant`);
    return v;
  }

  scalarName(t: SpvType, at: string, where: number): ScalarName {
    if (t.kind === 'int' && Object.hasOwn(INT_NAMES, t.width)) return INT_NAMES[t.width as 8][t.signed ? 1 : 0];
    if (t.kind === 'float' && Object.hasOwn(FLOAT_NAMES, t.width)) return FLOAT_NAMES[t.width as 16];
    if (t.kind === 'bool') return 'bool';
    throw new Malformed(
      where,
      `${at}: a ${t.kind}${'width' in t ? ` of width ${t.width}` : ''} is not a scalar kernarg can lay out`,
    );
  }

  /**
   * The byte layout of a type in an explicitly laid-out block (Vulkan's Offset, ArrayStride and
   * MatrixStride decorations; `matrixStride` is the member's, for a matrix member).
   */
  explicitLayout(id: number, depth: number, from: number, matrixStride?: number): ValueLayout {
    if (depth > MAX_DEPTH) throw new Malformed(this.off(id), `type %${id} nests more than ${MAX_DEPTH} deep`);
    const at = `type %${id}`;
    const t = this.type(id, at, from);
    const here = this.off(id);
    switch (t.kind) {
      case 'bool':
        // A bool has no size of its own in a block: GLSL's bool is a 32-bit word there.
        return { kind: 'scalar', scalar: 'bool', encoding: 'bool', size: 4, align: 4 };
      case 'int':
      case 'float': {
        const name = this.scalarName(t, at, here);
        const size = t.width / 8;
        return {
          kind: 'scalar',
          scalar: name,
          encoding: t.kind === 'float' ? (t.width === 16 ? 'half' : 'float') : t.signed ? 'int' : 'uint',
          size,
          align: size,
        };
      }
      case 'vector': {
        const e = this.explicitLayout(t.component, depth + 1, here);
        if (e.kind !== 'scalar') throw new Malformed(this.off(id), `${at}: a vector of a non-scalar`);
        // std140/std430 base alignment: two components twice the component's, three or four four times.
        return {
          kind: 'vector',
          element: e.scalar,
          encoding: e.encoding,
          elementSize: e.size,
          length: t.count,
          size: e.size * t.count,
          align: e.size * (t.count === 2 ? 2 : 4),
        };
      }
      case 'matrix': {
        const column = this.explicitLayout(t.column, depth + 1, here);
        const stride = matrixStride ?? column.size;
        return { kind: 'array', element: column, length: t.count, stride, size: stride * t.count, align: column.align };
      }
      case 'array':
      case 'runtime-array': {
        const element = this.explicitLayout(t.element, depth + 1, here, matrixStride);
        const length = t.kind === 'array' ? this.constant(t.length, at) : 0;
        const stride = decoration(this.m, id, Decoration.ArrayStride) ?? element.size;
        return { kind: 'array', element, length, stride, size: stride * length, align: element.align };
      }
      case 'struct': {
        const fields = t.members.map((mt, i) => {
          const offset = memberDecoration(this.m, id, i, Decoration.Offset);
          if (offset === undefined) throw new Malformed(this.off(id), `${at}: member ${i} has no Offset decoration`);
          const layout = this.explicitLayout(
            mt,
            depth + 1,
            here,
            memberDecoration(this.m, id, i, MoreDecoration.MatrixStride),
          );
          return { name: this.m.memberNames.get(id)?.get(i) ?? null, offset, layout };
        });
        const size = fields.reduce((s, f) => Math.max(s, f.offset + f.layout.size), 0);
        const align = fields.reduce((a, f) => Math.max(a, f.layout.align), 1);
        return { kind: 'record', tagKind: 'struct', typeName: this.m.names.get(id) ?? '', size, align, fields };
      }
      default:
        throw new Malformed(this.off(id), `${at}: a ${t.kind} cannot sit in a buffer or push-constant block`);
    }
  }
}
