import type { SpirvBuilder } from '../../emit/spirv/builder.js';
import type { FunctionBuilder } from '../../emit/spirv/function.js';
import { BuiltIn, Op } from '../../emit/spirv/spec.js';
import type { SpirvFlavour } from './flavour.js';
import type { Gen, Sym } from './gen.js';

/** The three-component built-ins a tinytc body reads. */
export type BuiltinName = 'LocalInvocationId' | 'WorkgroupId' | 'NumWorkgroups';

/**
 * The module's built-in variables, declared on first use and shared by its entry points, in the
 * flavour's spelling: Vulkan's uvec3 Input variables, or (OpenCL) vectors of the index type,
 * decorated Constant with aligned pointers and loads, as tinytc declares them.
 */
export class Builtins {
  private readonly vars = new Map<BuiltinName, number>();

  constructor(
    private readonly b: SpirvBuilder,
    private readonly flavour: SpirvFlavour,
  ) {}

  private get vectorType(): number {
    return this.b.typeVector(this.b.typeInt(this.flavour.builtinBits), 3);
  }

  /** The vector's alignment where the flavour states it (tinytc: 4 × the component's bytes). */
  private get alignment(): number | undefined {
    return this.flavour.builtinAlignment ? 4 * (this.flavour.builtinBits / 8) : undefined;
  }

  private variable(name: BuiltinName): number {
    let v = this.vars.get(name);
    if (v === undefined) {
      const b = this.b;
      const align = this.alignment;
      const ptr =
        align === undefined
          ? b.typePointer('Input', this.vectorType)
          : b.typePointerAligned('Input', this.vectorType, align);
      v = b.variable(ptr, 'Input');
      if (this.flavour.builtinAlignment) b.decorate(v, 'Constant');
      b.decorate(v, 'BuiltIn', BuiltIn[name]);
      this.vars.set(name, v);
    }
    return v;
  }

  /**
   * One kernel's reader: component `axis` of a built-in as an index (each read once per kernel,
   * where the caller first asks), and the variables it read, for the entry point's interface.
   */
  reader(
    g: Gen,
    f: FunctionBuilder,
  ): { read(name: BuiltinName, axis: number): Sym; readonly used: ReadonlySet<number> } {
    const used = new Set<number>();
    const loaded = new Map<string, Sym>();
    const read = (name: BuiltinName, axis: number): Sym => {
      const key = `${name}.${axis}`;
      let s = loaded.get(key);
      if (!s) {
        const v = this.variable(name);
        used.add(v);
        const component = this.b.typeInt(this.flavour.builtinBits);
        const x = f.op(Op.CompositeExtract, component, f.load(this.vectorType, v, this.alignment), axis);
        s = { id: this.flavour.builtinBits === 64 ? x : f.op(Op.UConvert, g.i64t, x) };
        loaded.set(key, s);
      }
      return s;
    };
    return { read, used };
  }
}
