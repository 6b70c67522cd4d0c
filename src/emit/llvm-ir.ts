import { type LlvmKernelPlan, TRIPLE_INFO, type Triple, type TripleInfo } from '../abi/llvm-kernel.js';
import { joinPieces } from './pieces.js';
import { IrTypes } from './llvm-ir-types.js';
import { layoutOf } from '../layout/layout.js';
import { type FunctionInfo, type KernelModule, isNamedOnce } from '../model/kernel-module.js';
import { kernelArgTypeName } from '../types/print.js';
import { type QualType, type Type, canonical } from '../types/types.js';
import { SIGNED, ident, llvmString, pushAll } from './llvm-ir-spelling.js';
import { MetadataNodes, NodeList, metadataTuples } from './llvm-ir-metadata.js';
import { repeatedSlots } from '../abi/kernel-shape-memo.js';

export { llvmString };

export interface LlvmIrOptions {
  readonly triple: Triple;
  readonly metadata: 'modern' | 'legacy';
  /** Also emit `!kernel_arg_name` (clang's -cl-kernel-arg-info). */
  readonly kernelArgInfo?: boolean;
  /** Split each kernel into an entry that keeps the kernel CC and a body `__clang_ocl_kern_imp_<k>`. */
  readonly kernelStubs?: boolean;
  /** The R600 image pass applied: image2d_t/image3d_t arguments followed by their size and format. */
  readonly r600Lowered?: boolean;
  /**
   * Calls to `llvm.OpenCL.*.get.resource.id` on each image and sampler, stored to globals (for checking the real pass).
   */
  readonly resourceIdProbes?: boolean;
}

class ModuleWriter {
  private readonly types: IrTypes;
  private readonly md: MetadataNodes;
  private readonly info: TripleInfo;
  /**
   * What follows a kernel's name in its text (`define`, to its last newline) and in its legacy `!opencl.kernels` node
   * (`refs`, '' with modern metadata), by its plan's slot list where kernels share it (kernels of one shape,
   * `repeatedSlots`): their parameters, metadata nodes and body are the same, the nodes numbered when the first was
   * written. Made again when the nodes are numbered again.
   */
  private shapes = new WeakMap<readonly object[], { readonly define: string; readonly refs: string }>();
  /** What a kernel's first line holds before its name. */
  private readonly definePrefix: string;

  constructor(
    private readonly module: KernelModule,
    private readonly options: LlvmIrOptions,
  ) {
    this.info = TRIPLE_INFO[options.triple];
    this.types = new IrTypes(this.info);
    this.md = new MetadataNodes(module.functions, isNamedOnce(module));
    this.definePrefix = `define ${this.cc(true)}void `;
  }

  node(body: string): string {
    return this.md.node(body);
  }

  irType(t: QualType | Type): string {
    return this.types.irType(t);
  }

  /** A parameter in a definition: `ptr addrspace(1) %a`, `ptr byval(%struct.S) align 4 %s`. */
  param(t: QualType, name: string): string {
    const c = canonical(t).type;
    const n = name ? ` ${ident('%', name)}` : '';
    if (c.kind === 'record' && this.info.byval) {
      return `ptr byval(${this.irType(c)}) align ${layoutOf(c, this.info.layout).align}${n}`;
    }
    return `${this.irType(t)}${n}`;
  }

  private paramType(t: QualType): string {
    return this.param(t, '');
  }

  /** The type a value of this parameter has at a call site (a `byval` aggregate is its pointer). */
  private argType(t: QualType): string {
    const c = canonical(t).type;
    return c.kind === 'record' && this.info.byval ? 'ptr' : this.irType(t);
  }

  private callArgs(params: readonly { type: QualType }[]): string {
    return params.map((p) => `${this.argType(p.type)} poison`).join(', ');
  }

  private ret(t: QualType): string {
    const ir = this.irType(t);
    return ir === 'void' ? 'ret void' : `ret ${ir} poison`;
  }

  private cc(kernel: boolean): string {
    const cc = kernel ? this.info.kernelCC : this.info.functionCC;
    return cc ? `${cc} ` : '';
  }

  private stubName(name: string): string {
    return `__clang_ocl_kern_imp_${name}`;
  }

  /** Calls the body makes to functions of this module (kernels through their stubs). */
  private calls(f: FunctionInfo, byName: Map<string, FunctionInfo>): string[] {
    const lines: string[] = [];
    for (const c of f.calls) {
      const callee = byName.get(c.name);
      if (!callee) continue;
      const viaStub = callee.isKernel && this.options.kernelStubs;
      const target = viaStub ? this.stubName(callee.name) : callee.name;
      const ret = viaStub ? 'void' : this.irType(callee.result);
      lines.push(`  call ${this.cc(false)}${ret} ${ident('@', target)}(${this.callArgs(callee.params)})`);
    }
    return lines;
  }

  private kernelParams(f: FunctionInfo): { type: QualType | null; ir: string; name: string }[] {
    const out: { type: QualType | null; ir: string; name: string }[] = [];
    for (const p of f.params) {
      out.push({ type: p.type, ir: this.param(p.type, p.name), name: p.name });
      const c = canonical(p.type).type;
      const spelled = kernelArgTypeName(p.type);
      if (this.options.r600Lowered && c.kind === 'image' && (spelled === 'image2d_t' || spelled === 'image3d_t')) {
        out.push({ type: null, ir: `[3 x i32] ${ident('%', `__size_${p.name}`)}`, name: `__size_${p.name}` });
        out.push({ type: null, ir: `[2 x i32] ${ident('%', `__format_${p.name}`)}`, name: `__format_${p.name}` });
      }
    }
    return out;
  }

  private attributeMetadata(f: FunctionInfo): string[] {
    const a = f.attributes;
    const out: string[] = [];
    if (a.vecTypeHint) {
      const c = canonical(a.vecTypeHint).type;
      const elem = c.kind === 'vector' ? c.element : c.kind === 'scalar' ? c.name : undefined;
      out.push(
        `!vec_type_hint ${this.node(`!{${this.irType(a.vecTypeHint)} undef, i32 ${elem !== undefined && SIGNED.has(elem) ? 1 : 0}}`)}`,
      );
    }
    if (a.workGroupSizeHint)
      out.push(`!work_group_size_hint ${this.node(`!{${a.workGroupSizeHint.map((n) => `i32 ${n}`).join(', ')}}`)}`);
    if (a.reqdWorkGroupSize)
      out.push(`!reqd_work_group_size ${this.node(`!{${a.reqdWorkGroupSize.map((n) => `i32 ${n}`).join(', ')}}`)}`);
    if (a.intelReqdSubGroupSize)
      out.push(`!intel_reqd_sub_group_size ${this.node(`!{i32 ${a.intelReqdSubGroupSize}}`)}`);
    return out;
  }

  /**
   * The module's lines, each with its newline. The struct types and globals the bodies name come
   * first, so with an array of plans the bodies are all made before the first line; they are then yielded a function
   * at a time rather than joined, so the text is never held whole beside them. With plans made as they are iterated (a
   * kernel-at-a-time lowering: files of very many kernels), the functions that can add a struct type or a global are
   * made once first for those, and every function is made again and written as it is made: the bodies are never
   * held either.
   */
  *lines(plans: Iterable<LlvmKernelPlan>): Generator<string, void, undefined> {
    const m = this.module;
    // Both are read through calls alone: a module without any (a file of very many small kernels) makes neither.
    const anyCalls = m.functions.some((f) => f.calls.length > 0);
    const byName = new Map(anyCalls ? m.functions.map((f) => [f.name, f]) : []);
    const globals: string[] = [];
    const intrinsics = new Set<string>();
    /** The `!opencl.kernels` nodes' numbers (legacy metadata), written at the module's end. */
    const legacyKernels = new NodeList();
    // Which non-kernel functions the kernels reach.
    const reachable = new Set<string>();
    const stack = anyCalls ? m.functions.filter((f) => f.isKernel) : [];
    while (stack.length) {
      const f = stack.pop()!;
      for (const c of f.calls) {
        const callee = byName.get(c.name);
        if (callee && !callee.isKernel && !reachable.has(callee.name)) {
          reachable.add(callee.name);
          stack.push(callee);
        }
      }
    }
    const body: string[] = [];
    if (Array.isArray(plans)) {
      const planOf = new Map((plans as readonly LlvmKernelPlan[]).map((p) => [p.name, p]));
      // Each function's text, the bodies all made before the head (which names their struct types).
      const pieces: string[] = [];
      const lists = { body, globals, intrinsics, legacyKernels };
      for (let at = 0; at < m.functions.length; at++) {
        const f = m.functions[at];
        const shaped = this.functionText(f, at, f.isKernel ? planOf.get(f.name)! : undefined, byName, reachable, lists);
        if (shaped !== undefined) pieces.push(shaped);
        else if (body.length) {
          for (const line of body) pieces.push(line + '\n');
          body.length = 0;
        }
      }
      yield* this.head(globals);
      yield* pieces;
    } else {
      // The first making: the struct types and globals, in the order the bodies name them. A function whose types
      // hold no record adds no struct type (a pointer's pointee is not named), and only probes add globals.
      // No plan is needed for that (a kernel's plan gives its metadata, numbered again below).
      const dropped = { body, globals, intrinsics: new Set<string>(), legacyKernels: new NodeList() };
      // The last function found to name no record (without calls or a type hint): one of its result and parameter
      // types names none either, found without looking at each type again (the kernel before, mostly).
      let plain: FunctionInfo | undefined;
      for (let at = 0; at < m.functions.length; at++) {
        const f = m.functions[at];
        if (!f.isKernel && !reachable.has(f.name)) continue;
        if (!this.options.resourceIdProbes && plain !== undefined && sameTypesAlone(f, plain)) continue;
        if (this.options.resourceIdProbes || this.namesRecord(f, byName))
          this.functionLines(f, at, undefined, byName, reachable, dropped);
        else if (sameTypesAlone(f, f)) plain = f;
        if (body.length) body.length = 0;
      }
      // Numbered again, in the order the written bodies name them.
      this.md.clear();
      this.shapes = new WeakMap();
      yield* this.head(globals);
      const kernelPlans = plans[Symbol.iterator]();
      const lists = { body, globals: [] as string[], intrinsics, legacyKernels };
      for (let at = 0; at < m.functions.length; at++) {
        const f = m.functions[at];
        const plan = f.isKernel ? nextPlan(kernelPlans, f.name) : undefined;
        const shaped = this.functionText(f, at, plan, byName, reachable, lists);
        // (A shared shape's kernel is one piece; setting an array's length costs, 190,000 times, when it is 0 already.)
        if (shaped !== undefined) yield shaped;
        else if (body.length) {
          for (const line of body) yield line + '\n';
          body.length = 0;
        }
      }
    }
    const v = m.clVersion;
    const version = this.node(`!{i32 ${Math.floor(v / 100)}, i32 ${Math.floor(v / 10) % 10}}`);
    for (const i of intrinsics) yield i + '\n';
    if (intrinsics.size) yield '\n';
    if (!legacyKernels.empty) yield* legacyKernels.line('!opencl.kernels = !{');
    yield `!opencl.ocl.version = !{${version}}\n`;
    if (this.options.triple.startsWith('spir')) yield `!opencl.spir.version = !{${version}}\n`;
    yield* this.md.lines();
  }

  /** The module's first lines: its header, struct types and globals. */
  private *head(globals: readonly string[]): Generator<string, void, undefined> {
    const m = this.module;
    yield `; ModuleID = ${llvmString(m.path)}\n`;
    yield `source_filename = ${llvmString(m.path)}\n`;
    yield `target datalayout = "${this.info.datalayout}"\n`;
    yield `target triple = "${this.options.triple}"\n\n`;
    yield* this.types.lines();
    if (globals.length) {
      for (const g of globals) yield g + '\n';
      yield '\n';
    }
  }

  /** Whether making `f`'s lines can name a struct type: a record (or an array of them) among the types it spells. */
  private namesRecord(f: FunctionInfo, byName: ReadonlyMap<string, FunctionInfo>): boolean {
    if (holdsRecord(f.result) || (f.attributes.vecTypeHint && holdsRecord(f.attributes.vecTypeHint))) return true;
    for (const p of f.params) if (holdsRecord(p.type)) return true;
    for (const c of f.calls) {
      const callee = byName.get(c.name);
      if (!callee) continue;
      if (holdsRecord(callee.result)) return true;
      for (const p of callee.params) if (holdsRecord(p.type)) return true;
    }
    return false;
  }

  /**
   * One function's text (a kernel's with its plan: without one, its metadata is left out; `at`, its index in the
   * module's functions): a kernel of a shape kernels share (`repeatedSlots`) as its text whole, returned; any other as
   * its lines, into `to.body`. What it adds to the module's lists, into theirs.
   */
  private functionText(
    f: FunctionInfo,
    at: number,
    plan: LlvmKernelPlan | undefined,
    byName: Map<string, FunctionInfo>,
    reachable: ReadonlySet<string>,
    to: FunctionLists,
  ): string | undefined {
    if (f.isKernel && plan && !this.options.resourceIdProbes && !this.options.kernelStubs && repeatedSlots(plan.args))
      return this.shapedKernel(f, at, plan, byName, to);
    this.functionLines(f, at, plan, byName, reachable, to);
    return undefined;
  }

  /**
   * A kernel of a shape kernels share: its text, the first one's made and kept but the name (its parameters, metadata
   * nodes and body are the same, numbered when the first was written), the rest that text under their own names.
   */
  private shapedKernel(
    f: FunctionInfo,
    at: number,
    plan: LlvmKernelPlan,
    byName: Map<string, FunctionInfo>,
    to: FunctionLists,
  ): string {
    const named = ident('@', f.name);
    const shape = this.shapes.get(plan.args);
    if (shape === undefined) {
      const first: string[] = [];
      const refs = this.kernelLines(f, at, plan, byName, { ...to, body: first });
      const text = first.join('\n') + '\n';
      this.shapes.set(plan.args, { define: text.slice(text.indexOf(named) + named.length), refs });
      return text;
    }
    if (this.options.metadata !== 'modern') to.legacyKernels.push(this.md.functionNode(at, shape.refs));
    return `${this.definePrefix}${named}${shape.define}`;
  }

  /** Any function's lines but a shared shape's kernel (`functionText`). */
  private functionLines(
    f: FunctionInfo,
    at: number,
    plan: LlvmKernelPlan | undefined,
    byName: Map<string, FunctionInfo>,
    reachable: ReadonlySet<string>,
    to: FunctionLists,
  ): void {
    const { body } = to;
    if (f.isKernel) this.kernelLines(f, at, plan, byName, to);
    else if (reachable.has(f.name)) {
      if (f.defined) {
        body.push(
          `define internal ${this.cc(false)}${this.irType(f.result)} ${ident('@', f.name)}(${f.params.map((p) => this.param(p.type, p.name)).join(', ')}) {`,
        );
        body.push('entry:', ...this.calls(f, byName), `  ${this.ret(f.result)}`, '}', '');
      } else {
        body.push(
          `declare ${this.cc(false)}${this.irType(f.result)} ${ident('@', f.name)}(${f.params.map((p) => this.paramType(p.type)).join(', ')})`,
          '',
        );
      }
    }
  }

  /**
   * A kernel's lines (`functionLines`); with legacy metadata, what its `!opencl.kernels` node holds after its name
   * (its shape's, `shapedKernel`), else ''.
   */
  private kernelLines(
    f: FunctionInfo,
    at: number,
    plan: LlvmKernelPlan | undefined,
    byName: Map<string, FunctionInfo>,
    to: FunctionLists,
  ): string {
    const { body, globals, intrinsics, legacyKernels } = to;
    const params = this.kernelParams(f);
    const md: string[] = [];
    // Without a plan (the first making of a streamed module, for its types): no metadata.
    const tuples = plan ? metadataTuples(plan, this.options) : [];
    let refs = '';
    if (this.options.metadata === 'modern') {
      for (const t of tuples) md.push(`!${t.key} ${this.node(`!{${t.items.join(', ')}}`)}`);
    } else {
      const nodes = tuples.map((t) => this.node(`!{${[`!${llvmString(t.key)}`, ...t.items].join(', ')}}`));
      refs = `, ${nodes.join(', ')}}`;
      legacyKernels.push(this.md.functionNode(at, refs));
    }
    pushAll(md, this.attributeMetadata(f));
    body.push(
      `define ${this.cc(true)}void ${ident('@', f.name)}(${params.map((p) => p.ir).join(', ')})${md.length ? ' ' + md.join(' ') : ''} {`,
    );
    body.push('entry:');
    if (this.options.resourceIdProbes) pushAll(body, this.probes(f, globals, intrinsics));
    if (this.options.kernelStubs) {
      const args = f.params.map((p) => `${this.argType(p.type)} ${ident('%', p.name)}`);
      body.push(`  call ${this.cc(false)}void ${ident('@', this.stubName(f.name))}(${args.join(', ')})`);
    } else pushAll(body, this.calls(f, byName));
    body.push('  ret void', '}', '');
    if (this.options.kernelStubs) {
      body.push(
        `define ${this.cc(false)}void ${ident('@', this.stubName(f.name))}(${f.params.map((p) => this.param(p.type, p.name)).join(', ')}) {`,
      );
      body.push('entry:');
      pushAll(body, this.calls(f, byName));
      body.push('  ret void', '}', '');
    }
    return refs;
  }

  /** For each image2d/3d and sampler: the resource-id query the R600 pass folds, stored where it can be read back. */
  private probes(f: FunctionInfo, globals: string[], intrinsics: Set<string>): string[] {
    const lines: string[] = [];
    for (const p of f.params) {
      const c = canonical(p.type).type;
      let fn: string | undefined;
      // The pass knows images and samplers by their kernel_arg_type spelling only.
      const spelled = kernelArgTypeName(p.type);
      if (c.kind === 'image' && (spelled === 'image2d_t' || spelled === 'image3d_t'))
        fn = `llvm.OpenCL.image.get.resource.id.${spelled === 'image2d_t' ? '2d' : '3d'}`;
      else if (spelled === 'sampler_t') fn = 'llvm.OpenCL.sampler.get.resource.id';
      if (!fn) continue;
      const ty = this.irType(p.type);
      intrinsics.add(`declare i32 @${fn}(${ty})`);
      const g = ident('@', `kernarg.rid.${f.name}.${p.name}`);
      globals.push(`${g} = addrspace(1) global i32 -1`);
      const r = ident('%', `rid.${p.name}`);
      lines.push(
        `  ${r} = call i32 @${fn}(${ty} ${ident('%', p.name)})`,
        `  store volatile i32 ${r}, ptr addrspace(1) ${g}`,
      );
    }
    return lines;
  }
}

/** Where a function's making puts its lines and what it adds to the module's lists. */
interface FunctionLists {
  readonly body: string[];
  readonly globals: string[];
  readonly intrinsics: Set<string>;
  readonly legacyKernels: NodeList;
}

/**
 * Whether `f` spells no types but its result's and parameters' (no calls, no type hint) and those are `g`'s, the same
 * objects (`sameTypesAlone(f, f)`: whether it spells no others).
 */
function sameTypesAlone(f: FunctionInfo, g: FunctionInfo): boolean {
  if (f.calls.length !== 0 || f.attributes.vecTypeHint !== undefined || f.result !== g.result) return false;
  if (f.params.length !== g.params.length) return false;
  for (let i = 0; i < f.params.length; i++) if (f.params[i].type !== g.params[i].type) return false;
  return true;
}

/** Whether `irType` of the type names a struct type: a record, or an array of them (a pointer names none). */
function holdsRecord(t: QualType): boolean {
  const c = canonical(t).type;
  return c.kind === 'record' || (c.kind === 'array' && holdsRecord(c.element));
}

/** The next plan, which must be kernel `name`'s (plans come in the module's kernel order). */
function nextPlan(it: Iterator<LlvmKernelPlan>, name: string): LlvmKernelPlan {
  const r = it.next();
  if (r.done || r.value.name !== name) throw new Error(`the LLVM IR writer expected kernel ${name}'s plan`);
  return r.value;
}

/**
 * The module's text a line at a time (`--format llvm-ir` for files of very many kernels); `plans` an array, or made
 * as they are iterated, in kernel order (iterated once, as the bodies are written).
 */
export function emitLlvmIrPieces(
  module: KernelModule,
  plans: Iterable<LlvmKernelPlan>,
  options: LlvmIrOptions,
): Generator<string, void, undefined> {
  return new ModuleWriter(module, options).lines(plans);
}

export function emitLlvmIr(module: KernelModule, plans: readonly LlvmKernelPlan[], options: LlvmIrOptions): string {
  return joinPieces(emitLlvmIrPieces(module, plans, options));
}
