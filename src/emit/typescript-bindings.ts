import type { OpenCLPlan, OpenCLSlot, ValueLayout } from '../abi/plan.js';
import type { IrType, ScalarTypeName } from '../frontend/tinytc/ast.js';
import type { QualType, ScalarName } from '../types/types.js';
import type { BuildInput } from '../build-input/build-input.js';
import { portablePlan } from './portable-plan.js';

/** What `kernarg gen-ts` writes a module from. */
export interface BindingsInput {
  /** The generator, for the header: `kernarg 0.1.0`. */
  readonly generator: string;
  /** The source file as the user named it. */
  readonly origin: string;
  readonly plan: OpenCLPlan;
  /** OpenCL C to build, and the driver's options for it. */
  readonly source: string;
  readonly options: string;
  /** OpenCL C input: the portable build input (source, headers, options) the module builds from anywhere. */
  readonly build?: BuildInput;
  /** tinytc input: each function's logical parameters, and the OpenCL C with group tables as ulong (NVIDIA). */
  readonly tinytc?: {
    readonly params: ReadonlyMap<string, readonly (readonly [string, IrType])[]>;
    readonly ulongSource: string;
    readonly ulongOptions: string;
    /** tinytc v0.4's work-groups along x, y and z (v0.3's, along the batch axis, are the default and not written). */
    readonly groups?: 'axes';
  };
}

/** Names TypeScript will not take as a type name (reserved words and predefined types). */
const RESERVED_TYPE_NAMES = new Set([
  'any',
  'bigint',
  'boolean',
  'never',
  'null',
  'number',
  'object',
  'string',
  'symbol',
  'undefined',
  'unknown',
  'void',
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'while',
  'with',
  'implements',
  'interface',
  'let',
  'package',
  'private',
  'protected',
  'public',
  'static',
  'yield',
  'await',
  'type',
  'as',
  'async',
  'declare',
  'from',
  'get',
  'is',
  'keyof',
  'module',
  'namespace',
  'readonly',
  'require',
  'set',
  'infer',
  'unique',
  'asserts',
  'abstract',
  'accessor',
  'satisfies',
  'out',
  'of',
  'constructor',
  'global',
]);

/** Names the module itself declares or imports. */
const MODULE_NAMES = [
  'Kernels',
  'load',
  'program',
  'source',
  'BoundKernel',
  'BoundTinytcKernel',
  'BindOptions',
  'Context',
  'DeviceBuffer',
  'DeviceImage',
  'DeviceSampler',
  'LocalMemory',
  'MemrefOf',
  'GroupOf',
  'SvmBlock',
  'EmbeddedProgram',
  'bindProgram',
];

/** The typed array a buffer of each scalar travels in (half as its 16-bit patterns); other scalars take any view. */
const TYPED_ARRAY: Partial<Record<ScalarName, string>> = {
  char: 'Int8Array',
  uchar: 'Uint8Array',
  short: 'Int16Array',
  ushort: 'Uint16Array',
  int: 'Int32Array',
  uint: 'Uint32Array',
  long: 'BigInt64Array',
  ulong: 'BigUint64Array',
  half: 'Uint16Array',
  float: 'Float32Array',
  double: 'Float64Array',
};
const IR_TYPED_ARRAY: Record<ScalarTypeName, string> = {
  i1: 'Uint8Array',
  i8: 'Int8Array',
  i16: 'Int16Array',
  i32: 'Int32Array',
  i64: 'BigInt64Array',
  index: 'BigInt64Array',
  f32: 'Float32Array',
  f64: 'Float64Array',
  // tinytc v0.4: half and bfloat16 as their bits; complex numbers interleaved (real, imaginary).
  f16: 'Uint16Array',
  bf16: 'Uint16Array',
  c32: 'Float32Array',
  c64: 'Float64Array',
};
const WIDE = new Set(['long', 'ulong', 'i64', 'index']);

export const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
export const pascal = (name: string) =>
  name.replace(/(^|_+)([a-zA-Z0-9])/g, (_, __, c: string) => c.toUpperCase()) || 'K';

export class TypeNames {
  private readonly used = new Set(MODULE_NAMES);
  private readonly records = new Map<string, string>();

  /** A fresh type name near `want`. */
  fresh(want: string): string {
    let name =
      /^[A-Za-z_$][\w$]*$/.test(want) && !RESERVED_TYPE_NAMES.has(want) ? want : `${want.replace(/\W/g, '_')}_`;
    if (/^\d/.test(name)) name = `_${name}`;
    for (let n = 2; this.used.has(name); n++) name = `${name.replace(/_\d+$/, '')}_${n}`;
    this.used.add(name);
    return name;
  }

  /** The interface name of a record layout, declared once per type name. */
  record(typeName: string, declare: (name: string) => void): string {
    const have = this.records.get(typeName);
    if (have) return have;
    const bare = typeName.replace(/^(struct|union)\s+/, '');
    const name = this.fresh(/^[A-Za-z_]\w*$/.test(bare) ? bare : 'Anonymous');
    this.records.set(typeName, name);
    declare(name);
    return name;
  }
}

const tuple = (elem: string, n: number) =>
  n <= 16
    ? `readonly [${new Array(n).fill(elem).join(', ')}]`
    : `readonly ${elem.includes('|') ? `(${elem})` : elem}[]`;

function stripTypedefs(q: QualType): QualType {
  let t = q;
  while (t.type.kind === 'typedef') t = t.type.target;
  return t;
}

/** The typed array a pointer argument's buffer holds: its pointee's scalar (or vector element). */
export function elementArray(type: QualType | undefined): string {
  if (!type) return 'ArrayBufferView';
  const t = stripTypedefs(type);
  if (t.type.kind !== 'pointer') return 'ArrayBufferView';
  const p = stripTypedefs(t.type.pointee).type;
  if (p.kind === 'scalar') return TYPED_ARRAY[p.name] ?? 'ArrayBufferView';
  if (p.kind === 'vector') return TYPED_ARRAY[p.element] ?? 'ArrayBufferView';
  return 'ArrayBufferView';
}

/** Writes TypeScript types for OpenCL slots and tinytc parameters into `decls`. */
export class TypeWriter {
  readonly decls: string[] = [];
  constructor(private readonly names: TypeNames) {}

  value(l: ValueLayout): string {
    switch (l.kind) {
      case 'scalar':
        return WIDE.has(l.scalar) ? 'number | bigint' : 'number';
      case 'vector':
        return tuple(WIDE.has(l.element) ? 'number | bigint' : 'number', l.length);
      case 'array':
        return tuple(this.value(l.element), l.length);
      case 'record':
        return this.names.record(l.typeName, (name) => {
          const fields = l.fields.filter((f) => f.name !== null);
          if (l.fields.some((f) => f.bitWidth !== undefined)) {
            // Reserve the declaration's place, then fill it: nested records are declared first.
            this.decls.push(
              `/** ${l.typeName}: has bit-fields, which kernarg does not pack, so no value is accepted. */\nexport ` +
                `type ${name} = never;`,
            );
            return;
          }
          const lines = fields.map((f) => `  readonly ${key(f.name!)}: ${this.value(f.layout)};`);
          if (l.tagKind === 'union') {
            const alts = fields.map((f) => `{ readonly ${key(f.name!)}: ${this.value(f.layout)} }`);
            this.decls.push(
              `/** ${l.typeName} (${l.size} bytes): exactly one member. */\nexport type ${name} ` +
                `= ${alts.join(' | ') || 'never'};`,
            );
          } else
            this.decls.push(
              `/** ${l.typeName} (${l.size} bytes) */\nexport interface ${name} {\n${lines.join('\n')}\n}`,
            );
        });
    }
  }

  slot(s: OpenCLSlot): string {
    switch (s.kind) {
      case 'value':
        return s.layout ? this.value(s.layout) : 'never';
      case 'buffer':
        return `DeviceBuffer<${elementArray(s.type)}> | SvmBlock`;
      case 'local':
        return 'LocalMemory';
      case 'image':
        return 'DeviceImage';
      case 'sampler':
        return 'DeviceSampler';
      case 'queue':
      case 'pipe':
        return 'never';
    }
  }

  ir(t: IrType): string {
    switch (t.kind) {
      case 'scalar':
        // A complex number (tinytc v0.4) is passed as its parts, real first.
        if (t.name === 'c32' || t.name === 'c64') return 'readonly [number, number]';
        // A bool (tinytc v0.4) passes as a byte: true or false, or 0 or 1 (runtime/args/bool-arg.ts).
        if (t.name === 'i1') return 'boolean | 0 | 1';
        return WIDE.has(t.name) ? 'number | bigint' : 'number';
      case 'memref':
        return `MemrefOf<${IR_TYPED_ARRAY[t.element]}, ${this.shape(t.shape)}>`;
      case 'group':
        return `GroupOf<${IR_TYPED_ARRAY[t.memref.element]}, ${this.shape(t.memref.shape)}>`;
      // No parameter has a coopmatrix type (tinytc refuses one, as kernarg's v0.4 checker does).
      case 'coopmatrix':
      case 'void':
        return 'never';
    }
  }

  /** Static extents as literal types, so a wrong static extent fails the type check. */
  private shape(dims: readonly (number | null)[]): string {
    return `readonly [${dims.map((d) => (d === null ? 'number' : String(d))).join(', ')}]`;
  }
}

const comment = (text: string) => text.replace(/\*\//g, '*\\/');

/**
 * The typed-bindings module for one source file: every kernel's argument types, the embedded plan and source, and
 * `load`.
 */
export function emitTypeScriptBindings(input: BindingsInput): string {
  const names = new TypeNames();
  const writer = new TypeWriter(names);
  const entries: string[] = [];
  const argDecls: string[] = [];
  for (const k of input.plan.kernels) {
    const argsName = names.fresh(`${pascal(k.name)}Args`);
    const params = input.tinytc?.params.get(k.name);
    let fields: string[];
    if (params) fields = params.map(([name, t]) => `  readonly ${key(name)}: ${writer.ir(t)};`);
    else
      fields = k.args.map(
        (s) =>
          `  /** ${comment(s.typeName)} (argument ${s.index}, ${s.kind}) */\n  ` +
          `readonly ${key(s.name)}: ${writer.slot(s)};`,
      );
    argDecls.push(
      `/** The arguments of ${params ? '@' : 'kernel '}${k.name}. */\nexport interface ${argsName} ` +
        `{\n${fields.join('\n')}\n}`,
    );
    entries.push(`  readonly ${key(k.name)}: ${params ? 'BoundTinytcKernel' : 'BoundKernel'}<${argsName}>;`);
  }
  const program = {
    origin: input.origin,
    generator: input.generator,
    language: input.tinytc ? 'tinytc' : 'opencl-c',
    source: input.source,
    options: input.options,
    ...(input.build ? { build: input.build } : {}),
    plan: portablePlan(input.plan),
    ...(input.tinytc
      ? {
          params: Object.fromEntries(input.tinytc.params),
          ulongSource: input.tinytc.ulongSource,
          ulongOptions: input.tinytc.ulongOptions,
          ...(input.tinytc.groups ? { groups: input.tinytc.groups } : {}),
        }
      : {}),
  };
  const imports = [
    'bindProgram',
    'type BindOptions',
    'type Context',
    'type EmbeddedProgram',
    input.tinytc ? 'type BoundTinytcKernel' : 'type BoundKernel',
  ];
  if (!input.tinytc)
    imports.push('type DeviceBuffer', 'type DeviceImage', 'type DeviceSampler', 'type LocalMemory', 'type SvmBlock');
  else imports.push('type GroupOf', 'type MemrefOf');
  return [
    `// Generated by ${input.generator} (kernarg gen-ts) from ${comment(input.origin)}. Do not edit: regenerate it.`,
    "// Each kernel takes its arguments by name, typed from kernarg's plan; the plan and the OpenCL C",
    `// ${input.build ? '(with every header it includes) ' : ''}are embedded below, so loading parses nothing and ` +
      `reads no file.`,
    `import { ${imports.join(', ')} } from 'kernarg/runtime';`,
    '',
    ...writer.decls.map((d) => d + '\n'),
    ...argDecls.map((d) => d + '\n'),
    '/** Every kernel of the module, bound to one context. */',
    'export interface Kernels {',
    ...entries,
    '}',
    '',
    `const program: EmbeddedProgram = ${JSON.stringify(program, null, 1)};`,
    '',
    '/** Builds the program for `context` (through the build cache) and binds every kernel. */',
    'export function load(context: Context, options: BindOptions = {}): Kernels {',
    '  return bindProgram(context, program, options) as unknown as Kernels;',
    '}',
    '',
  ].join('\n');
}
