// `kernarg gen-ts shader.spv`: typed TypeScript bindings of a Vulkan compute shader's entry points,
// importing only kernarg/runtime. The module embeds the SPIR-V; each entry point gets a loader
// whose run() takes the resources and the push-constant block by the names the shader gives them
// (the plan's names), every block typed member by member from its layout, and whose options take
// the specialization constants by name with their types. Computes nothing the plan does not say.
import type { ValueLayout } from '../layout/value-layout.js';
import { assertNever } from '../assert-never.js';

/**
 * What the bindings read of a vulkan plan and of the shader's entry points (src/readers'
 * readSpirv and readShaderEntries), stated here by shape: emitters import no target or reader.
 */
export interface ShaderBindingsInput {
  /** The generator, for the header: `kernarg 0.1.0`. */
  readonly generator: string;
  /** The module file as the user named it. */
  readonly origin: string;
  readonly plan: {
    readonly kernels: readonly {
      readonly name: string;
      readonly args: readonly {
        readonly name: string;
        readonly argKind: string;
        readonly descriptorSet?: number;
        readonly binding?: number;
        readonly layout?: ValueLayout;
      }[];
    }[];
  };
  readonly entries: readonly {
    readonly name: string;
    readonly workGroup: readonly { readonly size: number; readonly specId?: number }[];
    readonly specConstants: readonly {
      readonly name: string;
      readonly specId: number;
      readonly scalar: string;
      readonly defaultValue: boolean | number | bigint;
    }[];
  }[];
  readonly spirv: Uint8Array;
}

/** Names the module declares or imports, and TypeScript's own: never given to a block's type. */
const TAKEN = new Set([
  'VulkanShader',
  'ShaderGeometry',
  'VulkanContext',
  'Int64',
  'Sized',
  'SPIRV',
  'spirv',
  'any',
  'bigint',
  'boolean',
  'never',
  'number',
  'object',
  'string',
  'symbol',
  'unknown',
  'void',
  'undefined',
  'null',
]);

const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
const pascal = (name: string) =>
  name.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_, __, c: string) => c.toUpperCase()) || 'Entry';
const tuple = (elem: string, n: number) =>
  n >= 1 && n <= 16
    ? `readonly [${new Array(n).fill(elem).join(', ')}]`
    : `readonly ${elem.includes('|') ? `(${elem})` : elem}[]`;

/** A spec constant's value type by its scalar: bool a boolean, 64-bit integers Int64, every other a number. */
const specType = (scalar: string) =>
  scalar === 'bool' ? 'boolean' : scalar === 'long' || scalar === 'ulong' ? 'Int64' : 'number';

class Types {
  readonly decls: string[] = [];
  private readonly used = new Set(TAKEN);
  private readonly records = new Map<ValueLayout, string>();

  fresh(want: string): string {
    let name = /^[A-Za-z_$][\w$]*$/.test(want) ? want : want.replace(/\W/g, '_') || 'Block';
    if (/^\d/.test(name)) name = `_${name}`;
    const base = name;
    for (let n = 2; this.used.has(name); n++) name = `${base}_${n}`;
    this.used.add(name);
    return name;
  }

  /** The type of a value in this layout; `read`: as run() returns it (a runtime-sized member as its elements). */
  value(l: ValueLayout, read: boolean): string {
    switch (l.kind) {
      case 'scalar':
        return l.encoding === 'bool' ? 'boolean' : l.size === 8 && l.encoding !== 'float' ? 'Int64' : 'number';
      case 'vector':
        return tuple(
          l.elementSize === 8 && l.encoding !== 'float' ? 'Int64' : l.encoding === 'bool' ? 'boolean' : 'number',
          l.length,
        );
      case 'array':
        return tuple(this.value(l.element, read), l.length);
      case 'record':
        return this.record(l, read);
      default:
        return assertNever(l);
    }
  }

  /**
   * An interface per struct (by its layout); a block with a runtime-sized last member gets a second one, as read back.
   */
  record(l: Extract<ValueLayout, { kind: 'record' }>, read: boolean): string {
    const last = l.fields[l.fields.length - 1];
    const runtime = last !== undefined && last.layout.kind === 'array' && last.layout.length === 0;
    const asRead = read && runtime;
    const names = asRead ? this.readRecords : this.records;
    const have = names.get(l);
    if (have) return have;
    const name = this.fresh(`${l.typeName || 'Block'}${asRead ? 'Read' : ''}`);
    names.set(l, name);
    const lines = l.fields
      .filter((f) => f.name !== null)
      .map((f) => {
        const element =
          f === last && runtime && f.layout.kind === 'array' ? this.value(f.layout.element, read) : undefined;
        const t = element === undefined ? this.value(f.layout, read) : asRead ? `${element}[]` : `Sized<${element}>`;
        return `  ${key(f.name!)}: ${t};`;
      });
    this.decls.push(
      `/** ${l.typeName || 'an unnamed block'} (${l.size} bytes${runtime ? ', then its runtime-sized array' : ''}) ` +
        `*/\nexport interface ${name} {\n${lines.join('\n')}\n}`,
    );
    return name;
  }

  private readonly readRecords = new Map<ValueLayout, string>();
}

/** Base64 of the module's bytes (no Node Buffer: the core runs in a browser). */
function base64(bytes: Uint8Array): string {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out +=
      abc[(n >> 18) & 63] +
      abc[(n >> 12) & 63] +
      (i + 1 < bytes.length ? abc[(n >> 6) & 63] : '=') +
      (i + 2 < bytes.length ? abc[n & 63] : '=');
  }
  return out;
}

export function emitShaderBindings(input: ShaderBindingsInput): string {
  const types = new Types();
  const entryDecls: string[] = [];
  for (const e of input.entries) {
    const k = input.plan.kernels.find((x) => x.name === e.name);
    if (!k) continue;
    const base = types.fresh(pascal(e.name));
    const args: string[] = [];
    const after: string[] = [];
    for (const a of k.args) {
      if (!a.layout) continue;
      const where =
        a.argKind === 'pod_pushconstant'
          ? 'push constants'
          : `set ${a.descriptorSet}, binding ${a.binding}, ${a.argKind === 'buffer' ? 'storage buffer' : 'uniform buffer'}`;
      // A storage block's members may be left out (zeroed: an output); the other blocks take every member.
      const given = types.value(a.layout, false);
      args.push(
        `  /** ${where} */\n  ${key(a.name)}: ${a.argKind === 'buffer' && a.layout.kind === 'record' ? `Partial<${given}>` : given};`,
      );
      after.push(
        `  ${key(a.name)}: ${a.argKind === 'buffer' ? types.value(a.layout, true) : types.value(a.layout, false)};`,
      );
    }
    const spec = e.specConstants.map(
      (s) =>
        `  /** constant_id ${s.specId}, ${s.scalar}; default ${String(s.defaultValue)} */\n ` +
        ` ${key(s.name)}?: ${specType(s.scalar)};`,
    );
    const wg = e.workGroup
      .map((d) => (d.specId === undefined ? String(d.size) : `${d.size} (spec constant ${d.specId}: options.local)`))
      .join(' × ');
    entryDecls.push(
      `/** The arguments of entry point ${e.name}: its resources and push constants, by the names the shader gives ` +
        `them. */\nexport interface ${base}Args {\n${args.join('\n')}\n}`,
      `/** ${e.name}'s arguments after a run: storage buffers read back, the rest as given. */\nexport ` +
        `interface ${base}After {\n${after.join('\n')}\n}`,
      `/** ${e.name}'s specialization constants, set when the pipeline is made (one left out keeps its default). ` +
        `*/\nexport type ${base}Specialization ` +
        `= ${spec.length ? `{\n${spec.join('\n')}\n}` : 'Record<string, never>'};`,
      `export interface ${base}Shader {\n  /** The work-group size the pipeline was made with. */\n  readonly ` +
        `localSize: readonly [number, number, number];\n  run(args: ${base}Args, geometry: ShaderGeometry): { ` +
        `args: ${base}After; timeMs: number };\n  dispose(): void;\n}`,
      `/** Entry point ${e.name}, work group ${wg}. */\nexport function load${base}(context: VulkanContext, ` +
        `options: { specialization?: ${base}Specialization; local?: readonly number[] } = {}): ${base}Shader {\n  ` +
        `return new VulkanShader(context, spirv(), { entry: ${JSON.stringify(e.name)}, ...options }) as unknown as ${base}Shader;\n}`,
    );
  }
  return [
    `// Typed bindings of the Vulkan compute shader ${input.origin}, generated by ${input.generator}. Do not edit: ` +
      `run kernarg gen-ts again.`,
    "import { VulkanShader, type ShaderGeometry, type VulkanContext } from 'kernarg/runtime';",
    '',
    '/** A 64-bit integer: a number up to 2^53, a bigint, or a digit string (read back: a number, or a digit string ' +
      'past 2^53). */',
    'export type Int64 = number | bigint | string;',
    '/** A runtime-sized array: its elements, or {size: n} for n zeroed ones (the buffer is sized by it). */',
    'export type Sized<T> = readonly T[] | { readonly size: number };',
    '',
    ...types.decls.flatMap((d) => [d, '']),
    ...entryDecls.flatMap((d) => [d, '']),
    `const SPIRV = '${base64(input.spirv)}';`,
    '',
    '/** The module, decoded from base64. */',
    'export function spirv(): Uint8Array {',
    '  const text = atob(SPIRV);',
    '  const bytes = new Uint8Array(text.length);',
    '  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);',
    '  return bytes;',
    '}',
    '',
  ].join('\n');
}
