// A zebin (ocloc's ELF for Intel GPUs) read back into the zebin plan its `.ze_info` section
// describes: each kernel's `payload_arguments` folded into slots as the zebin target makes them (a
// buffer's stateful binding-table entry joined to its payload entry, a struct's pieces to one
// slot), names and type names from `kernels_misc_info` where ocloc wrote it (-cl-kernel-arg-info),
// the device from the `.note.intelgt.compat` product family. The plan's JSON form then goes
// through `readZebinPlan`, the checks a plan read from JSON gets.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { Messages } from '../diagnostics/messages.js';
import { PlanError } from '../abi/plan-schema.js';
import type { ZebinDevice } from '../targets/zebin/devices.js';
import type { ZebinPlan } from '../targets/zebin/plan.js';
import { readZebinPlan } from '../targets/zebin/schema.js';
import { caught, fail } from './byte-error.js';
import { type ElfFile, SHT_NOTE, notesOf, readElf, sectionBytes } from './elf.js';
import { byValueLayoutJson } from './type-name-layout.js';
import { type YamlMap, type YamlNode, parseZeInfoYaml } from './ze-info-yaml.js';

/** EM_INTELGT: the e_machine of a zebin. */
export const EM_INTEL_GEN = 205;
/**
 * `.note.intelgt.compat` note 1 (INTELGT_NOTE_PRODUCT_FAMILY) → device, as ocloc writes them for `-device
 * tgllp|dg2|pvc`.
 */
const PRODUCT_FAMILIES: Readonly<Record<number, ZebinDevice>> = { 29: 'tgllp', 1270: 'dg2', 1271: 'pvc' };

/** The zebin plan of a zebin, or the diagnostic that says why there is none. */
export function readZebin(bytes: Uint8Array): { plan?: ZebinPlan; diagnostics: Diagnostic[] } {
  const r = caught(() => planOf(readElf(bytes)));
  return r.value ? { plan: r.value, diagnostics: r.diagnostics } : { diagnostics: r.diagnostics };
}

function deviceOf(elf: ElfFile): ZebinDevice {
  for (const s of elf.sections) {
    if (s.type !== SHT_NOTE || s.name !== '.note.intelgt.compat') continue;
    for (const n of notesOf(elf, s)) {
      if (n.name !== 'IntelGT' || n.type !== 1 || n.desc.length < 4) continue;
      const family = n.desc[0] | (n.desc[1] << 8) | (n.desc[2] << 16) | (n.desc[3] * 2 ** 24);
      const device = PRODUCT_FAMILIES[family];
      if (!device)
        fail(
          Messages.zeInfoField,
          n.descOffset,
          '(the file)',
          `product family ${family} is not a device kernarg models (tgllp 29, dg2 1270, pvc 1271)`,
        );
      return device;
    }
  }
  return fail(Messages.zeInfoField, 0, '(the file)', 'no .note.intelgt.compat product family names the device');
}

function planOf(elf: ElfFile): ZebinPlan {
  const section = elf.sections.find((s) => s.name === '.ze_info');
  const device = deviceOf(elf);
  // ocloc writes no .ze_info for a program without kernels: its plan has none.
  if (!section) return readZebinPlan({ target: 'zebin', device, kernels: [] });
  const doc = parseZeInfoYaml(sectionBytes(elf, section), section.offset);
  const json = planJson(doc, device, section.offset);
  try {
    return readZebinPlan(json);
  } catch (e) {
    if (e instanceof PlanError) fail(Messages.zeInfoField, section.offset, '(the plan)', e.message);
    throw e;
  }
}

const get = (m: YamlMap, key: string): YamlNode | undefined => m.entries.find((e) => e.key === key)?.value;
const text = (n: YamlNode | undefined): string | undefined => (n?.kind === 'scalar' ? n.value : undefined);

function nat(m: YamlMap, key: string, kernel: string): number {
  const n = get(m, key);
  const v = text(n);
  if (v === undefined || !/^\d{1,9}$/.test(v))
    fail(
      Messages.zeInfoField,
      n?.at ?? m.at,
      kernel,
      `${key}: expected a count, got ${v === undefined ? 'nothing' : `'${v.slice(0, 20)}'`}`,
    );
  return Number(v);
}

/** Per kernel: its arguments' names and type names from `kernels_misc_info`, by index. */
type ArgInfo = { name?: string; typeName?: string; access?: string; size?: number; pipe?: boolean };
type MiscInfo = Map<string, Map<number, ArgInfo>>;

function miscInfo(root: YamlMap): MiscInfo {
  const out: MiscInfo = new Map();
  const list = get(root, 'kernels_misc_info');
  if (list?.kind !== 'seq') return out;
  for (const k of list.items) {
    if (k.kind !== 'map') continue;
    const name = text(get(k, 'name'));
    const args = get(k, 'args_info');
    if (name === undefined || args?.kind !== 'seq') continue;
    const byIndex = new Map<number, ArgInfo>();
    for (const a of args.items) {
      if (a.kind !== 'map') continue;
      const index = Number(text(get(a, 'index')));
      if (!Number.isInteger(index)) continue;
      const argName = text(get(a, 'name'));
      // ocloc writes `type_name: 'float*;8'`: the type name, then the argument's size.
      const spelled = text(get(a, 'type_name'));
      const typeName = spelled?.replace(/;\d+$/, '');
      const size = spelled === undefined ? undefined : /;(\d{1,7})$/.exec(spelled)?.[1];
      const access = (
        { __read_only: 'read_only', __write_only: 'write_only', __read_write: 'read_write' } as Record<string, string>
      )[text(get(a, 'access_qualifier')) ?? ''];
      byIndex.set(index, {
        name: argName !== undefined && /^[A-Za-z_]\w*$/.test(argName) ? argName : undefined,
        typeName,
        access,
        ...(size !== undefined ? { size: Number(size) } : {}),
        ...(text(get(a, 'type_qualifiers'))?.split(' ').includes('pipe') ? { pipe: true } : {}),
      });
    }
    out.set(name, byIndex);
  }
  return out;
}

function planJson(doc: YamlNode, device: ZebinDevice, at: number): unknown {
  if (doc.kind !== 'map') fail(Messages.zeInfoSyntax, at, 1, 'the document is not a mapping');
  const kernels = get(doc, 'kernels');
  // `kernels:` with nothing after it is YAML's null: a program without kernels, as `--format ze-info` prints one.
  if (kernels?.kind === 'scalar' && kernels.value === '') return { target: 'zebin', device, kernels: [] };
  if (kernels?.kind !== 'seq') fail(Messages.zeInfoField, doc.at, '(the file)', "no 'kernels:' list");
  const misc = miscInfo(doc);
  const out = [];
  for (const k of kernels.items) {
    if (k.kind !== 'map') fail(Messages.zeInfoField, k.at, '(a kernel)', 'expected a mapping');
    const name = text(get(k, 'name'));
    if (name === undefined) fail(Messages.zeInfoField, k.at, '(a kernel)', 'no name');
    // IGC's entry for the program's own symbol table is no kernel.
    if (name === 'Intel_Symbol_Table_Void_Program') continue;
    out.push(kernelJson(k, name, misc.get(name) ?? new Map()));
  }
  return { target: 'zebin', device, kernels: out };
}

const ROLE_OF_SPACE: Readonly<Record<string, string>> = {
  global: 'data',
  constant: 'data',
  local: 'local',
  image: 'image',
  sampler: 'sampler',
};
const PAYLOAD_HEADER = 32;
const IMAGE_SIZE = new Set(['image_height', 'image_width', 'image_depth', 'image_array_size']);

function kernelJson(k: YamlMap, kernel: string, info: Map<number, ArgInfo>): unknown {
  const list = get(k, 'payload_arguments');
  const entries = list?.kind === 'seq' ? list.items : [];
  const slots: Record<string, unknown>[] = [];
  /** The slot of each explicit argument already made, by arg_index: a later entry of the same argument joins it. */
  const explicit = new Map<number, Record<string, unknown>>();
  const nameOf = (i: number) => info.get(i)?.name ?? `arg${i}`;
  let payloadSize = 0;
  for (const e of entries) {
    if (e.kind !== 'map') fail(Messages.zeInfoField, e.at, kernel, 'a payload argument that is not a mapping');
    const argType = text(get(e, 'arg_type'));
    if (argType === undefined) fail(Messages.zeInfoField, e.at, kernel, 'a payload argument without arg_type');
    const offset = nat(e, 'offset', kernel);
    const size = nat(e, 'size', kernel);
    payloadSize = Math.max(payloadSize, offset + size);
    const argIndex = get(e, 'arg_index') === undefined ? undefined : nat(e, 'arg_index', kernel);
    const addrmode = text(get(e, 'addrmode'));
    if (
      argIndex !== undefined &&
      (argType === 'arg_bypointer' || argType === 'arg_byvalue' || argType === 'buffer_address')
    ) {
      const prior = explicit.get(argIndex);
      const meta = info.get(argIndex) ?? {};
      if (argType === 'arg_byvalue') {
        const sourceOffset = get(e, 'source_offset') === undefined ? undefined : nat(e, 'source_offset', kernel);
        if (prior && prior.argType === 'arg_byvalue' && sourceOffset !== undefined && Array.isArray(prior.pieces)) {
          // A further piece of a struct: the slot spans from its first piece to this one's end.
          (prior.pieces as unknown[]).push({ sourceOffset, offset, size });
          prior.size = offset + size - (prior.offset as number);
          continue;
        }
        const slot: Record<string, unknown> = {
          name: nameOf(argIndex),
          param: argIndex,
          role: 'value',
          argType,
          offset,
          size,
          argIndex,
        };
        if (sourceOffset !== undefined) slot.pieces = [{ sourceOffset, offset, size }];
        if (meta.typeName !== undefined) slot.typeName = meta.typeName;
        slots.push(slot);
        explicit.set(argIndex, slot);
        continue;
      }
      // A buffer's stateful (binding-table) entry comes first; its payload entry joins it.
      if (
        prior &&
        prior.addrmode === 'stateful' &&
        (prior.addrspace === 'global' || prior.addrspace === 'constant') &&
        prior.size === 0
      ) {
        prior.bindingTable = true;
        prior.argType = argType;
        prior.offset = offset;
        prior.size = size;
        if (argType === 'buffer_address') delete prior.addrmode;
        else if (addrmode !== undefined) prior.addrmode = addrmode;
        continue;
      }
      const addrspace = text(get(e, 'addrspace'));
      const slot: Record<string, unknown> = {
        name: nameOf(argIndex),
        param: argIndex,
        role: meta.pipe ? 'pipe' : (ROLE_OF_SPACE[addrspace ?? 'global'] ?? 'data'),
        argType,
        offset,
        size,
        argIndex,
      };
      if (addrmode !== undefined) slot.addrmode = addrmode;
      if (addrspace !== undefined) slot.addrspace = addrspace;
      const access = text(get(e, 'access_type'));
      if (access !== undefined) slot.accessType = access;
      if (get(e, 'slm_alignment') !== undefined) slot.slmAlignment = nat(e, 'slm_alignment', kernel);
      if (get(e, 'sampler_index') !== undefined) slot.samplerIndex = nat(e, 'sampler_index', kernel);
      const imageType = text(get(e, 'image_type'));
      if (imageType !== undefined) slot.imageType = imageType;
      if (text(get(e, 'image_transformable')) === 'true') slot.imageTransformable = true;
      if (meta.typeName !== undefined) slot.typeName = meta.typeName;
      if (meta.access !== undefined && addrspace === 'image') slot.access = meta.access;
      slots.push(slot);
      explicit.set(argIndex, slot);
      continue;
    }
    // Implicit arguments, named as the zebin target names them.
    const name =
      argIndex !== undefined
        ? `${argType}.${nameOf(argIndex)}`
        : offset < 24 && (argType === 'global_id_offset' || argType === 'local_size')
          ? `payload_header.${argType}`
          : argType;
    const role =
      argType === 'image_channel_data_type' || argType === 'image_channel_order'
        ? 'image-format'
        : IMAGE_SIZE.has(argType)
          ? 'image-size'
          : 'hidden';
    slots.push(
      argIndex !== undefined
        ? { name, param: null, role, argType, offset, size, argIndex }
        : { name, param: null, role, argType, offset, size },
    );
  }
  for (const s of slots) {
    // By-value layouts: scalars and vectors by their type name; a struct as its bytes (ocloc does not describe its
    // fields).
    // A struct's bytes run to its last piece's end in the source (its size where ocloc names it).
    if (s.argType !== 'arg_byvalue') continue;
    const pieces = s.pieces as { sourceOffset: number; size: number }[] | undefined;
    const bytes = pieces
      ? Math.max(info.get(s.argIndex as number)?.size ?? 0, ...pieces.map((p) => p.sourceOffset + p.size))
      : (s.size as number);
    s.layout = byValueLayoutJson(pieces ? undefined : (s.typeName as string | undefined), bytes);
  }
  // The payload header (global_id_offset and local_size, 24 bytes) takes 32: the zebin target
  // counts a kernel's payload from there, so a kernel with nothing past the header has 32 too.
  const header = slots.some((s) => s.argType === 'global_id_offset' && s.offset === 0);
  return { name: kernel, args: slots, payloadSize: header ? Math.max(PAYLOAD_HEADER, payloadSize) : payloadSize };
}
