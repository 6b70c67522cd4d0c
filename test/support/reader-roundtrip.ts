// The round trip for the binary readers: compile a source with the real compiler, read the plan
// back out of the binary with kernarg's reader, and compare it slot by slot with the plan kernarg
// predicts from the source. Shared by the sampled tests and the full sweep script.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryHost } from '../../src/frontend/opencl-c/index.js';
import type { FileHost } from '../../src/frontend/opencl-c/preprocessor.js';
import { lower } from '../../src/lower.js';
import { readBinary } from '../../src/readers/index.js';
import type { AmdhsaPlan } from '../../src/abi/plan.js';
import type { AmdhsaCodeObject, AmdhsaLlvm } from '../../src/targets/amdhsa/lower.js';
import type { ZebinPlan } from '../../src/targets/zebin/plan.js';
import type { ZebinDevice } from '../../src/targets/zebin/devices.js';
import { parseAmdhsaNotes } from './tools.js';

export interface Source {
  readonly text: string;
  readonly std: 'CL1.2' | 'CL2.0' | 'CL3.0';
  /** A fixture's own file (its includes are found beside it), or none: the text is written to a scratch file. */
  readonly path?: string;
  readonly includeDirs?: readonly string[];
  readonly defines?: readonly (readonly [string, string | undefined])[];
  readonly clangArgs?: readonly string[];
  /** Compile without -cl-kernel-arg-info (the metadata then has no argument names). */
  readonly noArgInfo?: boolean;
  /** Where kernarg finds the source's includes (a fixture file is one). */
  readonly host?: FileHost;
}

/** What one compiled file gave: kernels compared and each difference in words. */
export interface RoundTrip {
  readonly kernels: number;
  readonly differences: string[];
}

/** Compiles `source` to a code object with clang (-O0, -cl-kernel-arg-info, gfx900); the object's bytes. */
export function compileCodeObject(clang: string, source: Source, codeObject: AmdhsaCodeObject): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-reader-'));
  try {
    const file = source.path ?? join(dir, 'k.cl');
    if (!source.path) writeFileSync(file, source.text);
    const object = join(dir, 'k.o');
    execFileSync(
      clang,
      [
        `-cl-std=${source.std}`,
        ...(source.clangArgs ?? []),
        '-target',
        'amdgcn-amd-amdhsa',
        '-mcpu=gfx900',
        '-nogpulib',
        '-O0',
        ...(source.noArgInfo ? [] : ['-cl-kernel-arg-info']),
        `-mcode-object-version=${codeObject}`,
        '-c',
        '-o',
        object,
        file,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    return new Uint8Array(readFileSync(object));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The fields of an amdhsa slot a code object's metadata carries, in one line. */
function amdhsaSlotLine(s: AmdhsaPlan['kernels'][number]['args'][number]): string {
  const explicit =
    s.param === null
      ? ''
      : ` ${s.name} param=${s.param} type=${s.typeName} space=${s.addressSpace ?? '-'} access=${s.access ?? '-'} ` +
        `pointee=${s.pointeeAlign ?? '-'}`;
  return `${s.offset}:${s.size}:${s.valueKind}${explicit}`;
}

/**
 * The plan read from `object` against the plan kernarg predicts from `source` for the same code
 * object and generation, every slot and the segment's size and alignment; and, with `readelf`,
 * the reader's slots against `llvm-readelf --notes` of the same bytes.
 */
export function amdhsaRoundTrip(
  object: Uint8Array,
  source: Source,
  llvm: AmdhsaLlvm,
  codeObject: AmdhsaCodeObject,
  readelf?: string,
): RoundTrip {
  const differences: string[] = [];
  const read = readBinary(object, 'k.o');
  if (!read.plan || read.plan.target !== 'amdhsa')
    return { kernels: 0, differences: [`no amdhsa plan read: ${read.diagnostics.map((d) => d.message).join('; ')}`] };
  const got = read.plan;
  const ours = lower(source.path ?? 'k.cl', source.text, source.host ?? memoryHost({}), {
    target: 'amdhsa',
    std: source.std,
    amdhsa: { codeObject, llvm },
    includeDirs: [...(source.includeDirs ?? [])],
    defines: source.defines?.map(([n, v]) => [n, v] as [string, string | undefined]),
  });
  if (!ours.plan || ours.plan.target !== 'amdhsa')
    return {
      kernels: 0,
      differences: [`kernarg did not lower the source: ${ours.diagnostics.map((d) => d.message).join('; ')}`],
    };
  const want = ours.plan;
  if (got.codeObject !== want.codeObject)
    differences.push(`code object: read ${got.codeObject}, predicted ${want.codeObject}`);
  if (got.llvm !== want.llvm) differences.push(`llvm: read ${got.llvm} (from .comment), compiled with ${want.llvm}`);
  const gotByName = new Map(got.kernels.map((k) => [k.name, k]));
  for (const k of want.kernels) {
    const g = gotByName.get(k.name);
    if (!g) {
      differences.push(`kernel ${k.name}: not in the code object`);
      continue;
    }
    const a = k.args.map(amdhsaSlotLine);
    const b = g.args.map(amdhsaSlotLine);
    for (let i = 0; i < Math.max(a.length, b.length); i++)
      if (a[i] !== b[i])
        differences.push(`kernel ${k.name} slot ${i}: predicted ${a[i] ?? 'none'}, read ${b[i] ?? 'none'}`);
    if (k.kernargSegmentSize !== g.kernargSegmentSize)
      differences.push(
        `kernel ${k.name}: segment size predicted ${k.kernargSegmentSize}, read ${g.kernargSegmentSize}`,
      );
    if (k.kernargSegmentAlign !== g.kernargSegmentAlign)
      differences.push(
        `kernel ${k.name}: segment align predicted ${k.kernargSegmentAlign}, read ${g.kernargSegmentAlign}`,
      );
    if (k.hiddenBytes !== g.hiddenBytes)
      differences.push(`kernel ${k.name}: hidden bytes predicted ${k.hiddenBytes}, read ${g.hiddenBytes}`);
  }
  if (got.kernels.length !== want.kernels.length)
    differences.push(
      `kernels: read ${got.kernels.map((k) => k.name).join(',')}, ` +
        `predicted ${want.kernels.map((k) => k.name).join(',')}`,
    );
  if (readelf) differences.push(...againstReadelf(object, got, readelf));
  return { kernels: want.kernels.length, differences };
}

/**
 * The reader's slots against `llvm-readelf --notes` of the same bytes: offsets, sizes, value kinds, names, segment size
 * and alignment.
 */
function againstReadelf(object: Uint8Array, got: AmdhsaPlan, readelf: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-readelf-'));
  try {
    writeFileSync(join(dir, 'k.o'), object);
    const theirs = parseAmdhsaNotes(execFileSync(readelf, ['--notes', join(dir, 'k.o')], { encoding: 'utf8' }));
    const out: string[] = [];
    for (const k of got.kernels) {
      const t = theirs.get(k.name);
      if (!t) {
        out.push(`readelf: no kernel ${k.name}`);
        continue;
      }
      const line = (
        o: string | number | undefined,
        s: string | number | undefined,
        v: string | undefined,
        n: string | undefined,
      ) => `${o}:${s}:${v}:${n ?? ''}`;
      const a = k.args.map((s) => line(s.offset, s.size, s.valueKind, s.param === null ? undefined : s.name));
      const b = t.args.map((s) =>
        line(
          s['.offset'],
          s['.size'],
          s['.value_kind'],
          s['.value_kind']?.startsWith('hidden') ? undefined : s['.name'],
        ),
      );
      if (a.join('|') !== b.join('|'))
        out.push(`readelf: kernel ${k.name}: reader ${a.join(' ')} / readelf ${b.join(' ')}`);
      if (
        String(k.kernargSegmentSize) !== t.props['.kernarg_segment_size'] ||
        String(k.kernargSegmentAlign) !== t.props['.kernarg_segment_align']
      )
        out.push(
          `readelf: kernel ${k.name}: segment ${k.kernargSegmentSize}/${k.kernargSegmentAlign} ` +
            `against ${t.props['.kernarg_segment_size']}/${t.props['.kernarg_segment_align']}`,
        );
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The fields of a zebin slot `.ze_info` carries (not its layout: ocloc does not describe struct fields). */
function zebinSlotLine(s: ZebinPlan['kernels'][number]['args'][number]): string {
  const pieces = s.pieces?.map((p) => `${p.sourceOffset}>${p.offset}+${p.size}`).join(',') ?? '';
  return [
    s.name,
    s.param,
    s.role,
    s.argType,
    s.offset,
    s.size,
    s.argIndex,
    s.addrmode,
    s.addrspace,
    s.accessType,
    s.bindingTable,
    s.slmAlignment,
    pieces,
    s.imageType,
    s.imageTransformable,
    s.samplerIndex,
    s.typeName,
    s.access,
  ]
    .map((x) => x ?? '-')
    .join(':');
}

/** The plan read from a zebin against the plan kernarg predicts for `device`, every slot and the payload size. */
export function zebinRoundTrip(zebin: Uint8Array, source: Source, device: ZebinDevice): RoundTrip {
  const read = readBinary(zebin, 'k.bin');
  if (!read.plan || read.plan.target !== 'zebin')
    return { kernels: 0, differences: [`no zebin plan read: ${read.diagnostics.map((d) => d.message).join('; ')}`] };
  const ours = lower(source.path ?? 'k.cl', source.text, source.host ?? memoryHost({}), {
    target: 'zebin',
    std: source.std,
    zebin: { device },
    includeDirs: [...(source.includeDirs ?? [])],
    defines: source.defines?.map(([n, v]) => [n, v] as [string, string | undefined]),
  });
  if (!ours.plan || ours.plan.target !== 'zebin')
    return {
      kernels: 0,
      differences: [`kernarg did not lower the source: ${ours.diagnostics.map((d) => d.message).join('; ')}`],
    };
  const differences: string[] = [];
  if (read.plan.device !== device) differences.push(`device: read ${read.plan.device}, compiled for ${device}`);
  const gotByName = new Map(read.plan.kernels.map((k) => [k.name, k]));
  for (const k of ours.plan.kernels) {
    const g = gotByName.get(k.name);
    if (!g) {
      differences.push(`kernel ${k.name}: not in the zebin`);
      continue;
    }
    const a = k.args.filter((s) => s.argType !== 'none').map(zebinSlotLine);
    const b = g.args.map(zebinSlotLine);
    for (let i = 0; i < Math.max(a.length, b.length); i++)
      if (a[i] !== b[i])
        differences.push(`kernel ${k.name} slot ${i}: predicted ${a[i] ?? 'none'}, read ${b[i] ?? 'none'}`);
    if (k.payloadSize !== g.payloadSize)
      differences.push(`kernel ${k.name}: payload predicted ${k.payloadSize}, read ${g.payloadSize}`);
  }
  return { kernels: ours.plan.kernels.length, differences };
}
