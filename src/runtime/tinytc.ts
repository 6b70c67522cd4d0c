import type { OpenCLPlan, OpenCLSlot } from '../abi/plan.js';
import type { HostRule } from '../abi/origin.js';
import { SourceFile } from '../diagnostics/source.js';
import { formatDiagnostics } from '../diagnostics/format.js';
import { canonicalStride, type IrType, type MemrefType, type Program, SCALAR_BYTES } from '../frontend/tinytc/ast.js';
import { varName } from '../frontend/tinytc/calling-convention.js';
import { compileTinytc } from '../frontend/tinytc/index.js';
import { SPIR64 } from '../layout/data-layout.js';
import { lowerOpenCL } from '../abi/opencl.js';
import { emitTinytcOpenCLCMapped } from '../emit/tinytc/index.js';
import { PackError, RuntimeInputError } from './pack/errors.js';
import { type Context, DeviceBuffer, Kernel, type KernelBuild, type SvmBlock } from './opencl/host.js';

/** A logical memref: data (host array or device buffer), shape, and stride (canonical when left out). */
export interface MemrefValue {
  readonly data: ArrayBufferView | DeviceBuffer;
  readonly shape: readonly number[];
  readonly stride?: readonly number[];
}

export interface GroupValue {
  readonly group: readonly MemrefValue[];
  readonly offset?: number;
}


export interface TinytcLaunch {
  readonly args: Readonly<Record<string, unknown>>;
  /** Number of work-groups along the third dimension: global = local × (1, 1, howmany), as tinytc does. */
  readonly howmany?: number;
}

/**
 * A tinytc function built for a device: logical arguments (memrefs, groups, scalars) expand into
 * the calling convention's pointer, shape, stride and offset arguments.
 */
export class TinytcKernel {
  private readonly kernel: Kernel;
  private readonly slots: readonly (OpenCLSlot & { host?: HostRule })[];
  private readonly params: Map<string, IrType>;
  readonly local: readonly [number, number, number];
  /** Host arrays copied in, to read back after a launch: argument (and member) → buffer. */
  readonly copies = new Map<string, { buffer: DeviceBuffer | SvmBlock; target: ArrayBufferView }[]>();

  constructor(readonly ctx: Context, readonly name: string, program: Program | readonly (readonly [string, IrType])[], plan: OpenCLPlan, openclC: string, std: 'CL1.2' | 'CL2.0' = 'CL2.0', build: KernelBuild = {}, buildOptions = '') {
    const k = plan.kernels.find((x) => x.name === name);
    if (!k) throw new RuntimeInputError(`no function @${name} (have ${plan.kernels.map((x) => '@' + x.name).join(', ')})`);
    this.slots = k.args as (OpenCLSlot & { host?: HostRule })[];
    // The parameters' IR types: from the parsed program, or as typed bindings embed them.
    this.params = Array.isArray(program) ? new Map(program) : new Map((program as Program).funcs.find((x) => x.name === name)!.params.map((p) => [varName(p.name), p.type]));
    const wg = k.reqdWorkGroupSize;
    this.local = wg ? [wg[0], wg[1], wg[2]] : [1, 1, 1];
    this.kernel = new Kernel(ctx, name, plan, openclC, `-cl-std=${std}${buildOptions ? ` ${buildOptions}` : ''}`, build);
  }

  /** Expands the logical arguments, launches with global = local × (1, 1, howmany), copies host arrays back. */
  launch(o: TinytcLaunch): { timeMs: number } {
    const howmany = o.howmany ?? 1;
    if (!Number.isSafeInteger(howmany) || howmany < 1) throw new PackError(this.name, '(howmany)', `howmany must be a positive integer, not ${howmany}`);
    const physical: Record<string, unknown> = {};
    const owned: { dispose(): void }[] = [];
    const indirect: SvmBlock[] = [];
    this.copies.clear();
    for (const [name] of this.params) if (!(name in o.args)) throw new PackError(this.name, name, 'missing');
    for (const key of Object.keys(o.args)) if (!this.params.has(key)) throw new PackError(this.name, key, `@${this.name} has no argument '${key}'`);
    for (const s of this.slots) {
      const rule = s.host!;
      const type = this.params.get(rule.arg)!;
      const v = o.args[rule.arg];
      if (type.kind === 'scalar') {
        physical[s.name] = v;
        continue;
      }
      if (type.kind === 'memref') {
        const m = this.memref(rule.arg, type, v);
        if (rule.take === 'data') physical[s.name] = this.deviceData(rule.arg, m, owned);
        else physical[s.name] = rule.take === 'shape' ? m.shape[rule.dim!] : m.stride[rule.dim!];
        continue;
      }
      if (type.kind !== 'group') continue;
      const g = v as GroupValue;
      if (typeof g !== 'object' || g === null || !Array.isArray(g.group) || g.group.length === 0) throw new PackError(this.name, rule.arg, 'a group takes {group: [memref, ...], offset?}');
      const members = g.group.map((m, i) => this.memref(`${rule.arg}[${i}]`, type.memref, m));
      if (rule.take === 'offset') {
        const off = g.offset ?? 0;
        if (!Number.isSafeInteger(off) || off < 0) throw new PackError(this.name, rule.arg, `group offset must be a non-negative integer, not ${off}`);
        physical[s.name] = off;
      } else if (rule.take === 'data') {
        const table = this.ctx.svm(8 * members.length);
        owned.push(table);
        const blocks = members.map((m, i) => {
          if (m.data instanceof DeviceBuffer) throw new PackError(this.name, `${rule.arg}[${i}]`, 'group members take host arrays (they are copied into shared virtual memory)');
          const b = this.ctx.svm(m.data.byteLength);
          owned.push(b);
          indirect.push(b);
          const src = m.data as ArrayBufferView;
          b.access((bytes) => bytes.set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength)));
          this.remember(`${rule.arg}[${i}]`, b, src);
          return b;
        });
        table.access((bytes) => blocks.forEach((b, i) => new DataView(bytes.buffer, bytes.byteOffset).setBigUint64(8 * i, b.ptr, true)));
        physical[s.name] = { svm: table.ptr };
      } else {
        const values = BigInt64Array.from(members.map((m) => BigInt(rule.take === 'shape' ? m.shape[rule.dim!] : m.stride[rule.dim!])));
        const buf = this.ctx.buffer(values);
        owned.push(buf);
        physical[s.name] = buf;
      }
    }
    if (indirect.length) this.kernel.useIndirectSvm(indirect);
    try {
      const r = this.kernel.launch({ args: physical, global: [this.local[0], this.local[1], this.local[2] * howmany], local: this.local }).wait();
      for (const list of this.copies.values()) {
        for (const c of list) {
          if (c.buffer instanceof DeviceBuffer) c.buffer.read(c.target);
          else c.buffer.access((bytes) => new Uint8Array(c.target.buffer, c.target.byteOffset, c.target.byteLength).set(bytes.subarray(0, c.target.byteLength)));
        }
      }
      return r;
    } finally {
      for (const x of owned) x.dispose();
    }
  }

  private remember(key: string, buffer: DeviceBuffer | SvmBlock, target: ArrayBufferView): void {
    const list = this.copies.get(key) ?? [];
    list.push({ buffer, target });
    this.copies.set(key, list);
  }

  private deviceData(name: string, m: { data: ArrayBufferView | DeviceBuffer }, owned: { dispose(): void }[]): DeviceBuffer {
    if (m.data instanceof DeviceBuffer) return m.data;
    const b = this.ctx.buffer(m.data);
    owned.push(b);
    this.remember(name, b, m.data);
    return b;
  }

  /** Checks a memref value against its declared type; fills in the canonical stride. */
  private memref(name: string, t: MemrefType, v: unknown): { data: ArrayBufferView | DeviceBuffer; shape: number[]; stride: number[] } {
    const m = v as MemrefValue;
    if (typeof m !== 'object' || m === null || !('data' in m) || !Array.isArray(m.shape)) throw new PackError(this.name, name, 'a memref takes {data, shape, stride?}');
    if (m.shape.length !== t.shape.length) throw new PackError(this.name, name, `shape has ${m.shape.length} modes, the memref ${t.shape.length}`);
    m.shape.forEach((e, i) => {
      if (!Number.isSafeInteger(e) || e < 0) throw new PackError(this.name, `${name}.shape[${i}]`, `${e} is not a valid extent`);
      if (t.shape[i] !== null && t.shape[i] !== e) throw new PackError(this.name, `${name}.shape[${i}]`, `${e} differs from the declared static extent ${t.shape[i]}`);
    });
    const canonical = canonicalStride(m.shape);
    const stride = m.stride ? [...m.stride] : (canonical as number[]);
    if (stride.length !== t.shape.length) throw new PackError(this.name, name, `stride has ${stride.length} modes, the memref ${t.shape.length}`);
    stride.forEach((s, i) => {
      if (t.stride[i] !== null && t.stride[i] !== s) throw new PackError(this.name, `${name}.stride[${i}]`, `${s} differs from the declared static stride ${t.stride[i]}`);
    });
    const needed = m.shape.reduce((acc, e, i) => acc + (e - 1) * stride[i], 1) * SCALAR_BYTES[t.element];
    const have = m.data instanceof DeviceBuffer ? m.data.size : (m.data as ArrayBufferView).byteLength;
    if (m.shape.every((e) => e > 0) && have < needed) throw new PackError(this.name, name, `data holds ${have} bytes, the shape and stride need ${needed}`);
    return { data: m.data, shape: [...m.shape], stride };
  }
}

/** Compiles tinytc IR with kernarg and builds its OpenCL C (or the given OpenCL C) for the context's device. */
export function tinytcKernel(ctx: Context, ir: string, name: string, options: { path?: string; openclC?: string; groupTables?: 'pointer' | 'ulong'; cache?: boolean | string; capture?: string | false; buildOptions?: string } = {}): TinytcKernel {
  const fe = compileTinytc(new SourceFile(options.path ?? `${name}.ir`, ir), { layout: SPIR64 });
  if (!fe.module || !fe.program || !fe.types) throw new RuntimeInputError(`kernarg cannot compile the IR:\n${formatDiagnostics(fe.diagnostics.items)}`);
  const plan = lowerOpenCL(fe.module);
  // NVIDIA's OpenCL compiler refuses pointer-to-pointer kernel parameters: pass group tables as ulong* there.
  const groupTables = options.groupTables ?? (/nvidia/i.test(ctx.device.platform) ? 'ulong' : 'pointer');
  // Pointer-to-pointer parameters need OpenCL C 2.0; everything else builds as 1.2, which every device takes.
  const pointerTables = groupTables === 'pointer' && fe.module.functions.some((f) => f.params.some((p) => p.type.type.kind === 'pointer' && p.type.type.pointee.type.kind === 'pointer'));
  const std = options.openclC || pointerTables ? 'CL2.0' : 'CL1.2';
  const path = options.path ?? `${name}.ir`;
  const generated = options.openclC === undefined ? emitTinytcOpenCLCMapped(fe.program.funcs, fe.types, fe.module, { groupTables }) : undefined;
  const irFile = new SourceFile(path, ir);
  const irLines = ir.split('\n');
  const build: KernelBuild = {
    origin: options.openclC ? `${name}.cl` : `${path}.cl`,
    ...(generated
      ? {
          generatedFrom: path,
          // A driver error on a generated line points back at the IR instruction it came from.
          lineOrigin: (line: number) => {
            const span = generated.origins[line - 1];
            if (!span) return undefined;
            const at = irFile.lineCol(span.start).line;
            return { file: path, line: at, text: irLines[at - 1] ?? '' };
          },
        }
      : {}),
    ...(options.cache !== undefined ? { cache: options.cache } : {}),
    ...(options.capture !== undefined ? { capture: options.capture } : {}),
  };
  return new TinytcKernel(ctx, name, fe.program, plan, options.openclC ?? generated!.text, std, build, options.buildOptions);
}
