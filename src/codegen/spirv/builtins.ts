import type { SpirvBuilder } from '../../emit/spirv/builder.js';
import type { FunctionBuilder } from '../../emit/spirv/function.js';
import { BuiltIn, Op } from '../../emit/spirv/spec.js';
import type { SpirvFlavour } from './flavour.js';
import type { Gen, Sym } from './gen.js';

/** The three-component built-ins a tinytc body reads. */
export type BuiltinName = 'LocalInvocationId' | 'WorkgroupId' | 'NumWorkgroups';
/** The 32-bit scalar built-ins tinytc v0.4's subgroup built-ins read. */
export type ScalarBuiltinName = 'SubgroupSize' | 'SubgroupId' | 'SubgroupLocalInvocationId';

/**
 * The module's built-in variables, declared on first use and shared by its entry points, in the
 * flavour's spelling: Vulkan's uvec3 Input variables, or (OpenCL) vectors of the index type,
 * decorated Constant with aligned pointers and loads, as tinytc declares them.
 */
export class Builtins {
  private readonly vars = new Map<BuiltinName | ScalarBuiltinName, number>();

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

  private variable(name: BuiltinName | ScalarBuiltinName): number {
    let v = this.vars.get(name);
    if (v === undefined) {
      const b = this.b;
      const scalar = isScalar(name);
      const type = scalar ? b.typeInt(32) : this.vectorType;
      const align = scalar ? (this.flavour.builtinAlignment ? 4 : undefined) : this.alignment;
      // Vulkan's subgroup built-ins belong to GroupNonUniform; OpenCL's Kernel capability has them.
      if (scalar && this.flavour.name === 'vulkan') b.capability('GroupNonUniform');
      const ptr = align === undefined ? b.typePointer('Input', type) : b.typePointerAligned('Input', type, align);
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
  ): {
    read(name: BuiltinName, axis: number): Sym;
    readScalar(name: ScalarBuiltinName): number;
    readonly used: ReadonlySet<number>;
  } {
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
    // A scalar built-in is loaded where it is read, each time (as tinytc does): no load must dominate the others.
    const readScalar = (name: ScalarBuiltinName): number => {
      const v = this.variable(name);
      used.add(v);
      return f.load(this.b.typeInt(32), v, this.flavour.builtinAlignment ? 4 : undefined);
    };
    return { read, readScalar, used };
  }
}

const isScalar = (n: BuiltinName | ScalarBuiltinName): n is ScalarBuiltinName =>
  n === 'SubgroupSize' || n === 'SubgroupId' || n === 'SubgroupLocalInvocationId';
