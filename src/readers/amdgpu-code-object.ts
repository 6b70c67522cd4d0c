// An AMDGPU code object (`.hsaco`, `.co`, a relocatable `.o`; code object v4 to v6) read back into
// the amdhsa plan its metadata describes: the NT_AMDGPU_METADATA note's msgpack map → the plan's
// JSON form → `readAmdhsaPlan`, the same checks and placement a plan read from JSON gets.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { Messages } from '../diagnostics/messages.js';
import type { AmdhsaPlan } from '../abi/plan.js';
import { PlanError } from '../abi/plan-schema.js';
import { readAmdhsaPlan } from '../targets/amdhsa/schema.js';
import { type AmdgpuProcessorName, processorOfMach } from '../abi/amdgpu-processors.js';
import { ByteError, caught, fail } from './byte-error.js';
import { type ElfFile, SHT_NOTE, notesOf, readElf, sectionBytes } from './elf.js';
import { MsgArray, MsgMap, type MsgValue, decodeMsgpack } from './msgpack.js';
import { byValueLayoutJson } from './type-name-layout.js';

export const EM_AMDGPU = 224;
const NT_AMDGPU_METADATA = 32;
const ELFOSABI_AMDGPU_HSA = 64;
/** ELF ABI version → code object (LLVM's ELFABIVERSION_AMDGPU_HSA_V4..V6). */
const CODE_OBJECTS: Readonly<Record<number, 4 | 5 | 6>> = { 2: 4, 3: 5, 4: 6 };

const ROLES = {
  by_value: 'value',
  global_buffer: 'data',
  dynamic_shared_pointer: 'local',
  image: 'image',
  sampler: 'sampler',
  queue: 'queue',
  pipe: 'pipe',
} as const satisfies Record<string, string>;

/** The ELF's machine and ABI: an AMDHSA code object (whatever its version). */
export function isAmdgpuElf(elf: Pick<ElfFile, 'machine'>): boolean {
  return elf.machine === EM_AMDGPU;
}

/** The amdhsa plan a code object's metadata note describes, or the diagnostic that says why there is none. */
export function readAmdgpuCodeObject(bytes: Uint8Array): { plan?: AmdhsaPlan; diagnostics: Diagnostic[] } {
  const r = caught(() => planOf(readElf(bytes)));
  return r.value ? { plan: r.value, diagnostics: r.diagnostics } : { diagnostics: r.diagnostics };
}

function planOf(elf: ElfFile): AmdhsaPlan {
  const codeObject = CODE_OBJECTS[elf.abiVersion];
  if (elf.osAbi !== ELFOSABI_AMDGPU_HSA || codeObject === undefined) fail(Messages.amdgpuCodeObject, elf.abiVersion);
  // EF_AMDGPU_MACH (e_flags & 0xff): the processor, gfx9 or later (gfx7 and gfx8 add hidden arguments kernarg does not
  // place).
  const mach = elf.flags & 0xff;
  const mcpu = processorOfMach(mach);
  if (mcpu === undefined) fail(Messages.amdgpuMcpu, `EF_AMDGPU_MACH 0x${mach.toString(16)}`);
  let note: { desc: Uint8Array; descOffset: number } | undefined;
  for (const s of elf.sections) {
    if (s.type !== SHT_NOTE) continue;
    note = notesOf(elf, s).find((n) => n.name === 'AMDGPU' && n.type === NT_AMDGPU_METADATA);
    if (note) break;
  }
  if (!note) fail(Messages.amdgpuNoMetadata, 0);
  const meta = decodeMsgpack(note.desc, note.descOffset);
  const json = planJson(meta, codeObject, llvmOf(elf), mcpu, note.descOffset);
  try {
    return readAmdhsaPlan(json);
  } catch (e) {
    if (e instanceof PlanError) fail(Messages.amdgpuPlan, note.descOffset, e.message);
    throw e;
  }
}

/**
 * The LLVM generation kernarg's plan names, from the `.comment` section's `clang version N`
 * (a code object does not say which compiler wrote it otherwise): before 18 → 16, 18 and 19 → 19,
 * later → 22; none → 22, today's.
 */
function llvmOf(elf: ElfFile): 16 | 19 | 22 {
  const comment = elf.sections.find((s) => s.name === '.comment');
  if (!comment) return 22;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: false }).decode(sectionBytes(elf, comment));
  } catch (e) {
    if (e instanceof ByteError) return 22;
    throw e;
  }
  const m = /clang version (\d+)/.exec(text);
  if (!m) return 22;
  const major = Number(m[1]);
  return major < 18 ? 16 : major < 20 ? 19 : 22;
}

/** A field of a metadata map, its type checked; `where` names the map for the message. */
function field<T>(
  map: MsgMap,
  key: string,
  where: string,
  check: (v: MsgValue) => v is MsgValue & T,
  expected: string,
): T | undefined {
  const v = map.get(key);
  if (v === undefined) return undefined;
  if (!check(v)) fail(Messages.amdgpuMetadata, map.offsetOf(key), `${where} ${key}`, `expected ${expected}`);
  return v;
}
const isString = (v: MsgValue): v is string => typeof v === 'string';
const isNat = (v: MsgValue): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isMap = (v: MsgValue): v is MsgMap => v instanceof MsgMap;
const isArray = (v: MsgValue): v is MsgArray => v instanceof MsgArray;

function required<T>(v: T | undefined, map: MsgMap, what: string): T {
  if (v === undefined) fail(Messages.amdgpuMetadata, map.offset, what, 'missing');
  return v;
}

/** A name kernarg's plans accept (an identifier), or undefined. */
const identifier = (s: string | undefined): string | undefined =>
  s !== undefined && /^[A-Za-z_]\w*$/.test(s) ? s : undefined;

/** The plan's JSON form from the metadata map, slot by slot in the metadata's order. */
function planJson(
  meta: MsgValue,
  codeObject: 4 | 5 | 6,
  llvm: 16 | 19 | 22,
  mcpu: AmdgpuProcessorName,
  at: number,
): unknown {
  if (!isMap(meta)) fail(Messages.amdgpuMetadata, at, 'root', 'expected a map');
  const kernels = required(field(meta, 'amdhsa.kernels', '', isArray, 'an array'), meta, 'amdhsa.kernels');
  return {
    target: 'amdhsa',
    codeObject,
    llvm,
    mcpu,
    kernels: kernels.items.map((k, i) => {
      if (!isMap(k)) fail(Messages.amdgpuMetadata, kernels.offsets[i], `kernel ${i}`, 'expected a map');
      return kernelJson(k, codeObject, i);
    }),
  };
}

function kernelJson(k: MsgMap, codeObject: 4 | 5 | 6, index: number): unknown {
  const where = `kernel ${index}`;
  const name = required(field(k, '.name', where, isString, 'a string'), k, `${where} .name`);
  const kw = `kernel '${name}'`;
  const size = required(field(k, '.kernarg_segment_size', kw, isNat, 'a count'), k, `${kw} .kernarg_segment_size`);
  const align = required(field(k, '.kernarg_segment_align', kw, isNat, 'a count'), k, `${kw} .kernarg_segment_align`);
  const args = field(k, '.args', kw, isArray, 'an array');
  const used = new Set<string>();
  let param = 0;
  const slots = (args?.items ?? []).map((a, i) => {
    if (!isMap(a)) fail(Messages.amdgpuMetadata, args!.offsets[i], `${kw} argument ${i}`, 'expected a map');
    const aw = `${kw} argument ${i}`;
    const valueKind = required(field(a, '.value_kind', aw, isString, 'a string'), a, `${aw} .value_kind`);
    const offset = required(field(a, '.offset', aw, isNat, 'a count'), a, `${aw} .offset`);
    const argSize = required(field(a, '.size', aw, isNat, 'a count'), a, `${aw} .size`);
    const hidden = valueKind.startsWith('hidden_');
    if (hidden) {
      // Hidden slots are named by their kind, as the lowering names them.
      return { name: unique(valueKind, used), param: null, role: 'hidden', offset, size: argSize, valueKind };
    }
    const role = (ROLES as Record<string, string>)[valueKind];
    if (role === undefined)
      fail(
        Messages.amdgpuMetadata,
        a.offsetOf('.value_kind'),
        `${aw} .value_kind`,
        `'${valueKind}' is not a value kind kernarg knows`,
      );
    const typeName = field(a, '.type_name', aw, isString, 'a string');
    const addressSpace = field(a, '.address_space', aw, isString, 'a string');
    const access = field(a, '.access', aw, isString, 'a string');
    const pointeeAlign = field(a, '.pointee_align', aw, isNat, 'a count');
    // Without -cl-kernel-arg-info the metadata has no names: arguments are named by position.
    const slot: Record<string, unknown> = {
      name: unique(identifier(field(a, '.name', aw, isString, 'a string')) ?? `arg${param}`, used),
      param: param++,
      role,
      offset,
      size: argSize,
      valueKind,
    };
    if (typeName !== undefined) slot.typeName = typeName;
    if (addressSpace !== undefined) slot.addressSpace = addressSpace;
    if (access !== undefined) slot.access = access;
    if (pointeeAlign !== undefined) slot.pointeeAlign = pointeeAlign;
    if (valueKind === 'by_value') slot.layout = byValueLayoutJson(typeName, argSize);
    return slot;
  });
  // The hidden block's size is the code object's (56 or 256 bytes) when the kernel has one; an
  // optimized kernel whose hidden arguments were all dropped has none.
  const hiddenBytes = slots.some((s) => s.param === null) ? (codeObject === 4 ? 56 : 256) : 0;
  return { name, args: slots, kernargSegmentSize: size, kernargSegmentAlign: align, hiddenBytes };
}

/** `name`, or `name_2`, `name_3`... when a kernel has it already (plans refuse duplicate names). */
function unique(name: string, used: Set<string>): string {
  let out = name;
  for (let n = 2; used.has(out); n++) out = `${name}_${n}`;
  used.add(out);
  return out;
}
