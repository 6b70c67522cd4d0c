import type { AbiPlan, OpenCLSlot, ValueLayout } from '../abi/plan.js';

function layoutJson(l: ValueLayout): unknown {
  switch (l.kind) {
    case 'scalar':
      return { kind: 'scalar', type: l.scalar, size: l.size, align: l.align };
    case 'vector':
      return { kind: 'vector', element: l.element, length: l.length, size: l.size, align: l.align };
    case 'array':
      return { kind: 'array', element: layoutJson(l.element), length: l.length, stride: l.stride, size: l.size, align: l.align };
    case 'record':
      return {
        kind: l.tagKind,
        typeName: l.typeName,
        size: l.size,
        align: l.align,
        fields: l.fields.map((f) => ({
          name: f.name,
          offset: f.offset,
          ...(f.bitWidth !== undefined ? { bitOffset: f.bitOffset, bitWidth: f.bitWidth } : {}),
          layout: layoutJson(f.layout),
        })),
      };
  }
}

function openclSlot(s: OpenCLSlot): unknown {
  return {
    name: s.name,
    param: s.param,
    role: s.role,
    index: s.index,
    kind: s.kind,
    ...(s.addressSpace ? { addressSpace: s.addressSpace } : {}),
    ...(s.access ? { access: s.access } : {}),
    typeName: s.typeName,
    size: s.size,
    ...(s.layout ? { layout: layoutJson(s.layout) } : {}),
  };
}

/** The JSON contract of ARCHITECTURE.md: `{ target, kernels: [{ name, args: [...] , ...}] , ... }`. */
export function planToJson(plan: AbiPlan): unknown {
  return {
    target: plan.target,
    arch: plan.arch,
    kernels: plan.kernels.map((k) => ({
      name: k.name,
      args: k.args.map(openclSlot),
      ...(k.reqdWorkGroupSize ? { reqdWorkGroupSize: k.reqdWorkGroupSize } : {}),
      ...(k.workGroupSizeHint ? { workGroupSizeHint: k.workGroupSizeHint } : {}),
      ...(k.vecTypeHint ? { vecTypeHint: k.vecTypeHint } : {}),
      ...(k.intelReqdSubGroupSize ? { intelReqdSubGroupSize: k.intelReqdSubGroupSize } : {}),
    })),
  };
}

export function emitJson(plan: AbiPlan): string {
  return JSON.stringify(planToJson(plan), null, 2) + '\n';
}
