// What each target's drawing shows, read from the JSON plan: lanes of byte grids, binding boxes
// and lists. Nothing here computes a layout; every offset and size is the plan's.
import type { TargetName } from 'kernarg';
import type { KernelJson, PlanJson } from '../plan-json.js';
import { type Drawing, type Lane, box, bytesOf } from './parts.js';
import { vulkanLanes } from './vulkan-lanes.js';
import { cudaLanes } from './cuda-lanes.js';
import { zebinLanes } from './zebin-lanes.js';

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
        summary:
          `packed parameter buffer (CU_LAUNCH_PARAM_BUFFER_POINTER) ${fmtSize(k.paramBytes ?? 0)} ` +
          `(${String(plan.arch ?? '')}, ${String(plan.localMemory ?? '')} local memory)${shared}`,
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
