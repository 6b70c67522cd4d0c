// A cubin (an NVIDIA ELF, e_machine EM_CUDA) → a cuda plan. Each kernel has a section
// `.nv.info.<kernel>` of EIATTR records; its EIATTR_KPARAM_INFO records give each parameter's
// ordinal, offset in the parameter buffer and size, which is all a cubin says about parameters
// (no types, no names). Records are a format byte, an attribute byte, then by format: NVAL no
// value (padded to 4 bytes), BVAL one byte (padded to 2), HVAL a 16-bit value, SVAL a 16-bit
// size and that many bytes. Every length is checked against the section before it is read.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { Messages } from '../diagnostics/messages.js';
import type { Bare } from '../abi/plan.js';
import type { ValueLayout } from '../layout/value-layout.js';
import { CUDA_SMS, cudaParamBase, isCudaSm } from '../targets/cuda/param-base.js';
import { placeCudaKernel } from '../targets/cuda/placement.js';
import type { CudaKernelPlan, CudaPlan, CudaSlot, CudaSm, PtxParamType } from '../targets/cuda/plan.js';
import { caught, fail } from './byte-error.js';
import { type ElfFile, readElf, sectionBytes } from './elf.js';

export const EM_CUDA = 190;

/** EIATTR record formats. */
const EIFMT = { nval: 1, bval: 2, hval: 3, sval: 4 } as const;
/** The attributes read: EIATTR_KPARAM_INFO (its 12-byte value) and EIATTR_CBANK_PARAM_SIZE (the buffer's size). */
const EIATTR_KPARAM_INFO = 0x17;
const EIATTR_CBANK_PARAM_SIZE = 0x19;
const KPARAM_INFO_BYTES = 12;

/** One EIATTR_KPARAM_INFO record: the size sits in the flags word's top 14 bits. */
export interface KparamInfo {
  readonly ordinal: number;
  readonly offset: number;
  readonly size: number;
  /** Where the record starts in the file. */
  readonly at: number;
}

export interface NvInfo {
  readonly params: readonly KparamInfo[];
  /** EIATTR_CBANK_PARAM_SIZE, where the section has it. */
  readonly paramSize?: number;
}

/** The KPARAM_INFO and CBANK_PARAM_SIZE records of one `.nv.info.<kernel>` section (the others are stepped over). */
export function readNvInfo(data: Uint8Array, sectionAt: number, name: string): NvInfo {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const params: KparamInfo[] = [];
  let paramSize: number | undefined;
  let at = 0;
  // Every round moves `at` forward by at least 2 bytes.
  while (at < data.length) {
    if (data.length - at < 2)
      fail(
        Messages.cubinRecord,
        sectionAt + at,
        name,
        `a record needs 2 bytes of format and attribute, ${data.length - at} left`,
      );
    const format = data[at];
    const attr = data[at + 1];
    switch (format) {
      case EIFMT.nval:
        at = alignUp(at + 2, 4);
        break;
      case EIFMT.bval:
        if (data.length - at < 3)
          fail(Messages.cubinRecord, sectionAt + at, name, 'a one-byte record ends past the section');
        at = alignUp(at + 3, 2);
        break;
      case EIFMT.hval:
        if (data.length - at < 4)
          fail(Messages.cubinRecord, sectionAt + at, name, 'a 16-bit record ends past the section');
        if (attr === EIATTR_CBANK_PARAM_SIZE) paramSize = view.getUint16(at + 2, true);
        at += 4;
        break;
      case EIFMT.sval: {
        if (data.length - at < 4)
          fail(Messages.cubinRecord, sectionAt + at, name, 'a sized record ends inside its size');
        const len = view.getUint16(at + 2, true);
        if (len > data.length - at - 4)
          fail(
            Messages.cubinRecord,
            sectionAt + at,
            name,
            `a record of ${len} bytes where ${data.length - at - 4} are left`,
          );
        if (attr === EIATTR_KPARAM_INFO) {
          if (len !== KPARAM_INFO_BYTES)
            fail(
              Messages.cubinRecord,
              sectionAt + at,
              name,
              `EIATTR_KPARAM_INFO holds ${KPARAM_INFO_BYTES} bytes, not ${len}`,
            );
          const flags = view.getUint32(at + 12, true);
          params.push({
            ordinal: view.getUint16(at + 8, true),
            offset: view.getUint16(at + 10, true),
            size: flags >>> 18,
            at: sectionAt + at,
          });
        }
        at += 4 + len;
        break;
      }
      default:
        fail(
          Messages.cubinRecord,
          sectionAt + at,
          name,
          `record format ${format} is none of NVAL (1), BVAL (2), HVAL (3) and SVAL (4)`,
        );
    }
  }
  return paramSize === undefined ? { params } : { params, paramSize };
}

const alignUp = (n: number, a: number) => Math.ceil(n / a) * a;

const SCALAR = {
  1: ['u8', { kind: 'scalar', scalar: 'uchar', encoding: 'uint', size: 1, align: 1 }],
  2: ['u16', { kind: 'scalar', scalar: 'ushort', encoding: 'uint', size: 2, align: 2 }],
  4: ['u32', { kind: 'scalar', scalar: 'uint', encoding: 'uint', size: 4, align: 4 }],
  8: ['u64', { kind: 'scalar', scalar: 'ulong', encoding: 'uint', size: 8, align: 8 }],
} as const satisfies Record<number, readonly [PtxParamType, ValueLayout]>;

/**
 * The alignment a parameter is given: a cubin does not record one, so the largest power of two
 * that its place in constant bank 0 allows, up to its size rounded up to a power of two (and 256),
 * which is what the declared alignment was at least, and enough for readCudaPlan's checks.
 */
function inferredAlign(offset: number, size: number, base: number): number {
  let a = 1;
  while (a < 256 && a < size && (offset + base) % (2 * a) === 0) a *= 2;
  return a;
}

/** One kernel's slots from its KPARAM_INFO records: ordinals 0..n-1 once each, in offset order without overlap. */
function kernelPlan(name: string, info: NvInfo, sectionAt: number, sm: CudaSm): CudaKernelPlan {
  const byOrdinal = [...info.params].sort((a, b) => a.ordinal - b.ordinal);
  const args: Bare<CudaSlot>[] = [];
  let end = 0;
  for (let i = 0; i < byOrdinal.length; i++) {
    const p = byOrdinal[i];
    if (p.ordinal !== i)
      fail(
        Messages.cubinParams,
        p.at,
        name,
        p.ordinal < i
          ? `two EIATTR_KPARAM_INFO records give ordinal ${p.ordinal}`
          : `no EIATTR_KPARAM_INFO record gives ordinal ${i}`,
      );
    if (p.size === 0) fail(Messages.cubinParams, p.at, name, `parameter ${i} has size 0`);
    if (p.offset < end)
      fail(
        Messages.cubinParams,
        p.at,
        name,
        `parameter ${i} at offset ${p.offset} overlaps the one before, which ends at ${end}`,
      );
    const align = inferredAlign(p.offset, p.size, cudaParamBase(sm));
    const scalar = p.size in SCALAR && p.offset % p.size === 0 ? SCALAR[p.size as keyof typeof SCALAR] : undefined;
    const ptxName = `${name}_param_${i}`;
    const base = {
      name: ptxName,
      param: i,
      role: 'value',
      ptxName,
      index: i,
      offset: p.offset,
      size: p.size,
      align,
    } as const;
    args.push(
      scalar
        ? { ...base, ptxType: scalar[0], layout: scalar[1] }
        : {
            ...base,
            ptxType: 'b8',
            layout: { kind: 'array', element: SCALAR[1][1], length: p.size, stride: 1, size: p.size, align },
          },
    );
    end = p.offset + p.size;
  }
  if (info.paramSize !== undefined && info.paramSize < end)
    fail(
      Messages.cubinParams,
      sectionAt,
      name,
      `EIATTR_CBANK_PARAM_SIZE says ${info.paramSize} bytes, but the parameters end at ${end}`,
    );
  return placeCudaKernel(
    {
      name,
      args,
      paramBytes: end,
      dynamicShared: [],
    },
    'nvidia',
  );
}

/**
 * The architecture a cubin was assembled for, from e_flags: bits 8-15 in ELF ABI version 8 (CUDA
 * 12.8 and later: ptxas 13.0 writes 0x6005a04 for sm_90, 0x6006402 for sm_100), bits 0-7 before.
 * A cubin runs only on its own architecture's family, so its offsets are that architecture's.
 */
export function cubinSm(elf: ElfFile): CudaSm {
  const sm = elf.abiVersion >= 8 ? (elf.flags >>> 8) & 0xff : elf.flags & 0xff;
  // e_flags sits at byte 48 of a 64-bit header, 36 of a 32-bit one.
  if (!isCudaSm(sm))
    fail(Messages.cubinUnknownSm, elf.bits === 64 ? 48 : 36, sm, CUDA_SMS.map((n) => `sm_${n}`).join(', '));
  return sm;
}

/** The cuda plan of a parsed cubin: one kernel per `.nv.info.<kernel>` section, in section order. */
export function cubinPlan(elf: ElfFile): CudaPlan {
  const sm = cubinSm(elf);
  const kernels: CudaKernelPlan[] = [];
  for (const s of elf.sections) {
    if (!s.name.startsWith('.nv.info.')) continue;
    const name = s.name.slice('.nv.info.'.length);
    kernels.push(kernelPlan(name, readNvInfo(sectionBytes(elf, s), s.offset, s.name), s.offset, sm));
  }
  if (!kernels.length) fail(Messages.cubinNoKernel, 0);
  return { target: 'cuda', arch: elf.bits === 64 ? 'nvptx64' : 'nvptx', sm, localMemory: 'nvidia', kernels };
}

/** A cubin's cuda plan, or a diagnostic naming the byte where it stops. */
export function readCubin(bytes: Uint8Array): { plan?: CudaPlan; diagnostics: Diagnostic[] } {
  const r = caught(() => cubinPlan(readElf(bytes)));
  return r.value ? { plan: r.value, diagnostics: [] } : { diagnostics: r.diagnostics };
}
