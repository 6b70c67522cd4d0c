// The vulkan drawing: descriptor sets with their bindings, the push-constant block, and the
// specialization constants, as the JSON plan places them.
import type { KernelJson, PlanJson } from '../plan-json.js';
import { type Box, type Lane, type ListLane, box } from './parts.js';

export function vulkanLanes(plan: PlanJson, k: KernelJson): Lane[] {
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
      title:
        `POD block · set ${id.replace('/', ', binding ')} ` +
        `· ${first.argKind === 'pod_ubo' ? 'uniform' : 'storage'} buffer, ${size} bytes`,
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
