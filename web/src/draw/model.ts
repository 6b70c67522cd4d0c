// What each target's drawing shows, read from the JSON plan: lanes of byte grids, binding boxes
// and lists. Nothing here computes a layout; every offset and size is the plan's.
import type { TargetName } from 'kernarg';
import type { KernelJson, LayoutJson, PlanJson, SlotJson } from '../plan-json.js';

/** How a slot relates to the source: an argument, or something the ABI adds. */
export type Mark = 'arg' | 'hidden' | 'setup' | 'implicit';

/** One labelled box: a slot of the plan (or a module-level resource when `slot` is -1). */
export interface Box {
  readonly slot: number;
  readonly name: string;
  /** A shorter name for tight boxes (the tooltip keeps the full one). */
  readonly short?: string;
  readonly type: string;
  readonly offset: number;
  readonly size: number;
  /** Source argument the box belongs to (colour and linking), or null. */
  readonly key: number | null;
  readonly mark: Mark;
  /** The slot's alignment when the plan states it (its own `align`, or its value's layout's). */
  readonly align?: number;
  readonly layout?: LayoutJson;
  /** Extra line of the tooltip. */
  readonly detail?: string;
  /** Target facts the tooltip lists before the alignment (cuda's `.param`, zebin's arg_type and addrmode). */
  readonly tipRows?: readonly (readonly [string, string])[];
  /** data-* attributes the page's tests read. */
  readonly data: Readonly<Record<string, string | number>>;
}

export interface BytesLane {
  readonly kind: 'bytes';
  readonly title: string;
  readonly size: number;
  readonly unit: 'byte' | 'dword';
  readonly boxes: readonly Box[];
  /** Leading bytes the ABI reserves before the arguments (r600's implicit dwords). */
  readonly reserved?: { readonly size: number; readonly label: string };
}

export interface ListLane {
  readonly kind: 'list';
  readonly title: string;
  /** Column headings after the box column. */
  readonly columns: readonly string[];
  readonly rows: readonly { readonly box: Box; readonly cells: readonly string[] }[];
}

export interface BindingsLane {
  readonly kind: 'bindings';
  readonly title: string;
  readonly sets: readonly { readonly set: number; readonly use: string; readonly boxes: readonly Box[] }[];
}

export type Lane = BytesLane | ListLane | BindingsLane;

export interface Drawing {
  readonly target: TargetName;
  readonly kernel: string;
  readonly summary: string;
  readonly lanes: readonly Lane[];
}

function markOf(s: SlotJson): Mark {
  if (s.role === 'setup') return 'setup';
  if (s.role === 'hidden') return 'hidden';
  if (s.param === null || s.role === 'image-size' || s.role === 'image-format') return 'implicit';
  return 'arg';
}

/** The argument an implicit slot serves (r600's image size and format name their image). */
function keyOf(s: SlotJson, k: KernelJson): number | null {
  if (s.param !== null) return s.param;
  if (s.image) return k.args.find((a) => a.name === s.image)?.param ?? null;
  return null;
}

function box(
  k: KernelJson,
  i: number,
  offset: number,
  size: number,
  extra: Record<string, string | number> = {},
  detail?: string,
): Box {
  const s = k.args[i];
  const type = s.typeName ?? s.valueKind ?? '';
  return {
    slot: i,
    name: s.name,
    // amdhsa's hidden arguments all start with hidden_, which the box's mark already says.
    short: s.role === 'hidden' ? s.name.replace(/^hidden_/, '') : undefined,
    type: type === s.name ? '' : type,
    offset,
    size,
    key: keyOf(s, k),
    mark: markOf(s),
    align: s.align ?? s.layout?.align,
    layout: s.layout,
    detail,
    data: { slot: i, name: s.name, offset, size, ...extra },
  };
}

function bytesOf(
  target: TargetName,
  k: KernelJson,
  segment: number,
  title: string,
  reserved?: BytesLane['reserved'],
): BytesLane {
  const boxes = k.args.map((s, i) => box(k, i, s.offset ?? 0, s.size ?? 0, {}, s.valueKind ?? s.argType));
  const unit = target === 'amdhsa' || target === 'amd-cl2' || target === 'r600' ? 'dword' : 'byte';
  return { kind: 'bytes', title, size: segment, unit, boxes, reserved };
}

function openclLanes(k: KernelJson): Lane[] {
  const rows = k.args.map((s, i) => {
    const size = s.size ?? null;
    const what =
      s.kind === 'local'
        ? 'local: the host picks the size, no bytes passed'
        : s.kind === 'value'
          ? `${size} bytes by value`
          : `${size} bytes (the ${s.kind === 'sampler' ? 'cl_sampler' : 'cl_mem'} handle)`;
    const b = box(k, i, 0, size ?? 0, { index: s.index ?? i, size: size === null ? 'local' : size }, what);
    const space = s.addressSpace ?? s.access ?? '';
    return { box: b, cells: [String(s.index ?? i), s.kind ?? '', space, size === null ? 'local' : String(size)] };
  });
  return [{ kind: 'list', title: 'clSetKernelArg calls', columns: ['index', 'kind', 'space', 'arg_size'], rows }];
}

function vulkanLanes(plan: PlanJson, k: KernelJson): Lane[] {
  const lanes: Lane[] = [];
  // Descriptor sets: every binding this kernel uses, module-level ones (samplers, constants) too.
  const sets = new Map<number, Box[]>();
  const add = (set: number, b: Box) => (sets.get(set) ?? sets.set(set, []).get(set)!).push(b);
  for (const ls of plan.literalSamplers ?? []) {
    add(ls.descriptorSet, {
      slot: -1,
      name: ls.name ?? 'literal sampler',
      type: `sampler ${ls.expr}`,
      offset: 0,
      size: 0,
      key: null,
      mark: 'implicit',
      data: { set: ls.descriptorSet, binding: ls.binding },
    });
  }
  if (plan.constantData) {
    const c = plan.constantData;
    add(c.descriptorSet, {
      slot: -1,
      name: 'module constants',
      type: c.variables.map((v) => v.name).join(', '),
      offset: 0,
      size: 0,
      key: null,
      mark: 'implicit',
      data: { set: c.descriptorSet, binding: c.binding },
    });
  }
  const podGroups = new Map<string, number[]>();
  k.args.forEach((s, i) => {
    if (s.descriptorSet === undefined || s.binding === undefined) return;
    if (s.argKind === 'pod' || s.argKind === 'pod_ubo') {
      const id = `${s.descriptorSet}/${s.binding}`;
      const g = podGroups.get(id);
      if (g) {
        g.push(i);
        return;
      }
      podGroups.set(id, [i]);
      // The buffer holding the by-value arguments: one binding, drawn in its own lane below.
      const name = `POD ${s.argKind === 'pod_ubo' ? 'UBO' : 'SSBO'}`;
      add(s.descriptorSet, {
        slot: -1,
        name,
        type: 'by-value arguments',
        offset: 0,
        size: 0,
        key: null,
        mark: 'implicit',
        detail: s.vkDescriptorType,
        data: { name, set: s.descriptorSet, binding: s.binding, argKind: s.argKind },
      });
      return;
    }
    add(s.descriptorSet, {
      ...box(k, i, 0, 0, { set: s.descriptorSet, binding: s.binding, argKind: s.argKind ?? '' }, s.vkDescriptorType),
      type: `${s.argKind} · ${s.typeName}`,
    });
  });
  const useOf = (set: number) => plan.descriptorSets?.find((d) => d.set === set)?.use ?? '';
  lanes.push({
    kind: 'bindings',
    title: 'Descriptor sets and bindings',
    sets: [...sets.keys()]
      .sort((a, b) => a - b)
      .map((set) => ({
        set,
        use: useOf(set),
        boxes: sets.get(set)!.sort((a, b) => Number(a.data.binding) - Number(b.data.binding)),
      })),
  });
  // The POD block(s): by-value arguments at their offsets in the buffer the plan names.
  for (const [id, members] of podGroups) {
    const first = k.args[members[0]];
    const end = Math.max(...members.map((i) => (k.args[i].offset ?? 0) + (k.args[i].argSize ?? 0)));
    const size = podGroups.size === 1 && k.podSize ? Math.max(k.podSize, end) : end;
    const boxes = members.map((i) =>
      box(k, i, k.args[i].offset ?? 0, k.args[i].argSize ?? 0, {
        set: first.descriptorSet ?? '',
        binding: k.args[i].binding ?? '',
      }),
    );
    lanes.push({
      kind: 'bytes',
      title: `POD block · set ${id.replace('/', ', binding ')} · ${first.argKind === 'pod_ubo' ? 'uniform' : 'storage'} buffer, ${size} bytes`,
      size,
      unit: 'byte',
      boxes,
    });
  }
  // Push constants: PODs placed there, or the module's own (global offset, region offsets).
  const pushPods = k.args.flatMap((s, i) =>
    s.argKind === 'pod_pushconstant' ? [box(k, i, s.offset ?? 0, s.argSize ?? 0, { push: 1 })] : [],
  );
  const modulePush = (plan.pushConstants ?? []).map((p): Box => ({
    slot: -1,
    name: p.name,
    type: 'module push constant',
    offset: p.offset,
    size: p.size,
    key: null,
    mark: 'implicit',
    data: { name: p.name, offset: p.offset, size: p.size, push: 1 },
  }));
  const push = [...modulePush, ...pushPods];
  if (push.length > 0) {
    const end = Math.max(
      ...push.map((b) => b.offset + b.size),
      plan.pushConstantRange ? plan.pushConstantRange.offset + plan.pushConstantRange.size : 0,
    );
    lanes.push({ kind: 'bytes', title: `Push constants · ${end} bytes`, size: end, unit: 'byte', boxes: push });
  }
  // Spec constants: work-group size, work_dim, global offset, and one per local argument.
  const specRows: ListLane['rows'][number][] = (plan.specConstants ?? []).map((sc) => ({
    box: {
      slot: -1,
      name: sc.name,
      type: '',
      offset: 0,
      size: 0,
      key: null,
      mark: 'implicit',
      data: { spec: sc.specId, name: sc.name },
    },
    cells: [String(sc.specId), ''],
  }));
  k.args.forEach((s, i) => {
    if (s.specId === undefined) return;
    specRows.push({
      box: box(
        k,
        i,
        0,
        0,
        { spec: s.specId },
        `Workgroup array of ${s.arrayElemSize ?? '?'}-byte elements, length from spec constant ${s.specId}`,
      ),
      cells: [String(s.specId), `${s.arrayElemSize ?? '?'} B × length`],
    });
  });
  specRows.sort((a, b) => Number(a.box.data.spec) - Number(b.box.data.spec));
  if (specRows.length > 0)
    lanes.push({ kind: 'list', title: 'Specialization constants', columns: ['id', 'element'], rows: specRows });
  return lanes;
}

function llvmLanes(k: KernelJson): Lane[] {
  const rows = k.args.map((s, i) => ({
    box: box(
      k,
      i,
      0,
      0,
      { addrSpace: s.addrSpace ?? 0 },
      s.baseType && s.baseType !== s.typeName ? `base type ${s.baseType}` : undefined,
    ),
    cells: [String(s.addrSpace ?? 0), s.accessQual ?? '', s.typeQual || '—'],
  }));
  return [
    {
      kind: 'list',
      title: 'Kernel parameters and their kernel_arg_* metadata',
      columns: ['addrspace', 'access', 'type qual'],
      rows,
    },
  ];
}

/** A cuda parameter's declaration as `--format ptx` prints it (nvcl's `.ptr` spaces; pocl's bare integers). */
export function ptxParam(s: SlotJson, nvcl: boolean): string {
  const name = s.ptxName ?? s.name;
  if (s.ptxType === 'b8') return `.param .align ${s.align ?? 1} .b8 ${name}[${s.size ?? 0}]`;
  if (s.space === undefined || !nvcl) return `.param .${s.ptxType ?? ''} ${name}`;
  const space = s.space === 'generic' ? '' : `.${s.space} `;
  return `.param .${s.ptxType ?? ''} .ptr ${space}.align ${s.pointeeAlign ?? 1} ${name}`;
}

function cudaLanes(plan: PlanJson, k: KernelJson): Lane[] {
  const nvcl = plan.localMemory === 'nvidia';
  const size = k.paramBytes ?? 0;
  const boxes = k.args.map((s, i): Box => ({
    ...box(k, i, s.offset ?? 0, s.size ?? 0, { index: s.index ?? i, ptx: ptxParam(s, nvcl) }),
    tipRows: [
      ['.param', ptxParam(s, nvcl)],
      ['kernelParams', `[${s.index ?? i}]`],
    ],
  }));
  const lanes: Lane[] = [
    { kind: 'bytes', title: `Packed parameter buffer · ${size} bytes`, size, unit: 'byte', boxes },
  ];
  // cuLaunchKernel's other form: an array of pointers, one per parameter, each to its value's bytes.
  const params = k.args.map((s, i) => ({
    box: box(
      k,
      i,
      0,
      s.size ?? 0,
      { index: s.index ?? i, param: 1 },
      `kernelParams[${s.index ?? i}] points at ${s.size ?? 0} bytes`,
    ),
    cells: [
      String(s.index ?? i),
      String(s.size ?? 0),
      s.ptxType === 'b8' ? `.b8[${s.size ?? 0}]` : `.${s.ptxType ?? ''}`,
    ],
  }));
  lanes.push({
    kind: 'list',
    title: 'kernelParams: a pointer to each value',
    columns: ['index', 'size', 'ptx'],
    rows: params,
  });
  // Local pointers: blocks of the launch's dynamic shared memory (sharedMemBytes), sized by the host.
  const shared = (k.dynamicShared ?? []).flatMap((name) => {
    const i = k.args.findIndex((s) => s.name === name && s.param !== null);
    if (i < 0) return [];
    const s = k.args[i];
    const how = nvcl ? '.shared address' : '.u32 offset';
    const what = nvcl
      ? "its block's address in the shared window"
      : "its block's offset in the one extern shared array (pocl)";
    return [
      {
        box: box(
          k,
          i,
          0,
          0,
          { shared: 1 },
          `sharedMemBytes holds this block (the host picks its size); the parameter is ${what}`,
        ),
        cells: [s.pointeeAlign === undefined ? '—' : String(s.pointeeAlign), how],
      },
    ];
  });
  if (shared.length > 0)
    lanes.push({
      kind: 'list',
      title: 'Dynamic shared memory (sharedMemBytes)',
      columns: ['block align', 'passed as'],
      rows: shared,
    });
  return lanes;
}

/** What a zebin payload entry says in the tooltip: IGC's arg_type and addrmode as .ze_info spells them. */
function zeRows(s: SlotJson): [string, string][] {
  const rows: [string, string][] = [['arg_type', s.argType ?? '—']];
  if (s.addrmode) rows.push(['addrmode', s.addrmode]);
  if (s.addrspace) rows.push(['addrspace', `${s.addrspace}${s.accessType ? ` ${s.accessType}` : ''}`]);
  if (s.slmAlignment !== undefined) rows.push(['slm_alignment', String(s.slmAlignment)]);
  if (s.argIndex !== undefined) rows.push(['arg_index', String(s.argIndex)]);
  return rows;
}

/** The fields of a struct a piece of it carries (by their offsets in the struct). */
function piecesFields(layout: LayoutJson | undefined, from: number, size: number): string {
  if (!layout || layout.kind !== 'struct') return '';
  return layout.fields
    .filter((f) => f.offset >= from && f.offset < from + size)
    .map((f) => f.name ?? '(unnamed)')
    .join(', ');
}

function zebinLanes(k: KernelJson): Lane[] {
  const size = k.payloadSize ?? 0;
  const boxes: Box[] = [];
  const table: ListLane['rows'][number][] = [];
  k.args.forEach((s, i) => {
    const stateful = s.addrmode === 'stateful';
    if (s.bindingTable || stateful) {
      // Short cells: the list's box column takes most of the width.
      const kind =
        s.role === 'image'
          ? (s.imageType ?? 'image')
          : s.role === 'sampler'
            ? `sampler${s.samplerIndex === undefined ? '' : ` ${s.samplerIndex}`}`
            : (s.addrspace ?? 'buffer');
      table.push({
        box: { ...box(k, i, 0, 0, { bti: 1 }), tipRows: zeRows(s) },
        cells: [kind, s.addrmode ?? '', s.accessType ?? ''],
      });
    }
    // Images and samplers live only in the binding table: no payload bytes.
    if (stateful || (s.size ?? 0) <= 0) return;
    if (s.pieces && s.pieces.length > 0) {
      // IGC passes a struct as pieces, each at its own payload offset: one box each, named by where
      // it comes from in the struct (its source_offset), not laid out as the struct is in memory.
      for (const p of s.pieces) {
        const held = piecesFields(s.layout, p.sourceOffset, p.size);
        const b = box(
          k,
          i,
          p.offset,
          p.size,
          { sourceOffset: p.sourceOffset, piece: 1 },
          held ? `holds ${held}` : undefined,
        );
        boxes.push({
          ...b,
          name: `${s.name}+${p.sourceOffset}`,
          layout: undefined,
          align: undefined,
          tipRows: [...zeRows(s), ['source_offset', String(p.sourceOffset)]],
        });
      }
      return;
    }
    boxes.push({
      ...box(k, i, s.offset ?? 0, s.size ?? 0, { argType: s.argType ?? '' }),
      short: s.name.replace(/^payload_header\./, ''),
      tipRows: zeRows(s),
    });
  });
  const lanes: Lane[] = [{ kind: 'bytes', title: `Cross-thread payload · ${size} bytes`, size, unit: 'byte', boxes }];
  if (table.length > 0)
    lanes.push({ kind: 'list', title: 'Binding-table entries', columns: ['kind', 'addrmode', 'access'], rows: table });
  return lanes;
}

function fmtSize(n: number): string {
  return `${n} bytes`;
}

/** The drawing of one kernel of one target's plan. */
export function drawingOf(target: TargetName, plan: PlanJson, k: KernelJson): Drawing {
  switch (target) {
    case 'opencl':
      return { target, kernel: k.name, summary: `${k.args.length} clSetKernelArg calls`, lanes: openclLanes(k) };
    case 'amdhsa': {
      const size = k.kernargSegmentSize ?? 0;
      return {
        target,
        kernel: k.name,
        summary: `kernarg segment ${fmtSize(size)}, align ${String(k.kernargSegmentAlign ?? '')}`,
        lanes: [bytesOf(target, k, size, 'Kernarg segment')],
      };
    }
    case 'amd-cl2': {
      const size = k.kernargSize ?? 0;
      const sg = k.userSgprs as { count?: number; argsPointer?: number[] | null } | undefined;
      const sgprs = sg?.argsPointer
        ? `, argument pointer in s[${sg.argsPointer.join(':')}] of ${sg.count} user SGPRs`
        : '';
      return {
        target,
        kernel: k.name,
        summary: `argument buffer ${fmtSize(size)}${sgprs}`,
        lanes: [bytesOf(target, k, size, 'Argument buffer')],
      };
    }
    case 'r600': {
      const size = k.inputSize ?? 0;
      const first = Math.min(...k.args.map((s) => s.offset ?? 0), size);
      return {
        target,
        kernel: k.name,
        summary: `input buffer ${fmtSize(size)}`,
        lanes: [
          bytesOf(
            target,
            k,
            size,
            'Input buffer',
            first > 0 ? { size: first, label: `${first} bytes of implicit dwords` } : undefined,
          ),
        ],
      };
    }
    case 'vulkan': {
      const pod =
        k.podPlacement && k.podPlacement !== 'none'
          ? `PODs in ${k.podPlacement === 'pushconstant' ? 'push constants' : k.podPlacement.toUpperCase()}`
          : 'no PODs';
      return { target, kernel: k.name, summary: pod, lanes: vulkanLanes(plan, k) };
    }
    case 'llvm':
      return {
        target,
        kernel: k.name,
        summary: `${String(plan.triple ?? '')}, ${String(plan.metadata ?? '')} metadata`,
        lanes: llvmLanes(k),
      };
    case 'cuda': {
      const shared = k.dynamicShared?.length ? `; dynamic shared memory: ${k.dynamicShared.join(', ')}` : '';
      return {
        target,
        kernel: k.name,
        summary: `packed parameter buffer (CU_LAUNCH_PARAM_BUFFER_POINTER) ${fmtSize(k.paramBytes ?? 0)} (${String(plan.arch ?? '')}, ${String(plan.localMemory ?? '')} local memory)${shared}`,
        lanes: cudaLanes(plan, k),
      };
    }
    case 'zebin':
      return {
        target,
        kernel: k.name,
        summary: `cross-thread payload ${fmtSize(k.payloadSize ?? 0)} (${String(plan.device ?? '')})`,
        lanes: zebinLanes(k),
      };
    default:
      // A target without a drawing of its own (a new one: adding a target needs no change here) is
      // drawn as the list of its slots with whatever place its JSON gives them.
      return { target, kernel: k.name, summary: `${k.args.length} slots`, lanes: genericLanes(k) };
  }
}

function genericLanes(k: KernelJson): Lane[] {
  const rows = k.args.map((s, i) => {
    const size = typeof s.size === 'number' ? s.size : null;
    return {
      box: box(k, i, 0, size ?? 0, {}),
      cells: [s.role ?? '', s.offset === undefined ? '' : String(s.offset), size === null ? '' : String(size)],
    };
  });
  return [{ kind: 'list', title: 'Slots', columns: ['role', 'offset', 'size'], rows }];
}
