// The payload's arguments before placement, as IGC groups them: each group in payload order (its
// KernelArgsOrder), and the pending arguments of a parameter (explicit) or of the kernel and its
// images (implicit), each with its size, alignment and the slot it makes at the offset it gets.
import { Messages } from '../../diagnostics/messages.js';
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { alignTo } from '../../layout/align.js';
import { SPIR64 } from '../../layout/data-layout.js';
import { irAlign } from '../../layout/ir-align.js';
import { layoutOf } from '../../layout/layout.js';
import { valueLayout } from '../../layout/value-layout.js';
import { classifyArg } from '../../model/arg-class.js';
import type { Parameter } from '../../model/kernel-module.js';
import { originParam, originRole } from '../../abi/origin.js';
import type { Bare } from '../../abi/plan.js';
import { kernelArgTypeName, kernelArgTypeQual } from '../../types/print.js';
import { type ImageName, canonical } from '../../types/types.js';
import { assertNever } from '../../assert-never.js';
import type { ImageArg, WorkItemArg } from './implicit.js';
import type { ZeAccess, ZebinSlot } from './plan.js';
import { structPieces } from './struct-pieces.js';

/** IGC's zebin name of each image type. */
const IMAGE_TYPE = {
  image1d_t: 'image_1d',
  image1d_buffer_t: 'image_buffer',
  image2d_t: 'image_2d',
  image2d_depth_t: 'image_2d_depth',
  image2d_msaa_t: 'image_2d_msaa',
  image2d_msaa_depth_t: 'image_2d_msaa_depth',
  image3d_t: 'image_3d',
  image1d_array_t: 'image_1d_array',
  image2d_array_t: 'image_2d_array',
  image2d_array_depth_t: 'image_2d_array_depth',
  image2d_array_msaa_t: 'image_2d_array_msaa',
  image2d_array_msaa_depth_t: 'image_2d_array_msaa_depth',
} as const satisfies Record<ImageName, string>;

/** IGC's argument groups in payload order (KernelArgsOrder's CURBE order, the kinds kernarg meets). */
const GROUPS = [
  'ptr_local',
  'ptr_global',
  'ptr_constant',
  'constant_reg',
  'private_base_stateless',
  'printf_buffer',
  'work_dimensions',
  'group_count',
  'global_size',
  'local_size',
  'enqueued_local_size',
  'image_height',
  'image_width',
  'image_depth',
  'image_channel_data_type',
  'image_channel_order',
  'image_array_size',
  'sampler_snap_wa',
  'sampler',
  ...Object.keys(IMAGE_TYPE),
  'queue',
] as const;
export type Group = (typeof GROUPS)[number];
export const GROUP_RANK = new Map<string, number>(GROUPS.map((g, i) => [g, i]));

/** An argument before placement: its group, and its slot made at the offset it gets. */
export interface Pending {
  readonly group: Group;
  /** Bytes and alignment in the payload; 0 for a binding-table entry. */
  readonly size: number;
  readonly align: number;
  make(offset: number): Bare<ZebinSlot>;
}

function accessOf(a: string | undefined): ZeAccess {
  return a === 'write_only' ? 'writeonly' : a === 'read_write' ? 'readwrite' : 'readonly';
}

/** The explicit arguments of one parameter (none for a class IGC does not take). */
export function explicitArgs(
  p: Parameter,
  samplerIndex: () => number,
  transformable: boolean,
  diags: DiagnosticBag,
): Pending[] {
  const name = p.name;
  const param = originParam(p);
  const type = p.type;
  const typeName = kernelArgTypeName(type);
  const arg = classifyArg(type);
  switch (arg.kind) {
    case 'local': {
      // The pointee's LLVM alignment (a packed struct's 1, an `aligned` member's padding not counted).
      const pointee = canonical(arg.pointee).type;
      const slmAlignment = pointee.kind === 'scalar' && pointee.name === 'void' ? 1 : irAlign(pointee, SPIR64);
      return [
        {
          group: 'ptr_local',
          size: 8,
          align: Math.max(8, slmAlignment),
          make: (offset) => ({
            name,
            param,
            role: originRole(p, 'local'),
            argType: 'arg_bypointer',
            offset,
            size: 8,
            argIndex: p.index,
            addrmode: 'slm',
            addrspace: 'local',
            accessType: 'readwrite',
            slmAlignment,
            typeName,
            type,
          }),
        },
      ];
    }
    case 'buffer':
    case 'pipe': {
      const space = arg.kind === 'pipe' ? 'global' : arg.space;
      // IGC reads a buffer as read-only when its type qualifiers are exactly `const` (not `const restrict`).
      const accessType: ZeAccess =
        arg.kind === 'buffer' && (space === 'constant' || kernelArgTypeQual(type) === 'const')
          ? 'readonly'
          : 'readwrite';
      const group = space === 'constant' ? 'ptr_constant' : 'ptr_global';
      return [
        {
          group,
          size: 8,
          align: 8,
          make: (offset) => ({
            name,
            param,
            role: originRole(p, arg.kind === 'pipe' ? 'pipe' : 'data'),
            argType: 'arg_bypointer',
            offset,
            size: 8,
            argIndex: p.index,
            addrmode: 'stateless',
            addrspace: space,
            accessType,
            bindingTable: true,
            typeName,
            type,
          }),
        },
      ];
    }
    case 'image':
      return [
        {
          group: arg.image,
          size: 0,
          align: 1,
          make: () => ({
            name,
            param,
            role: originRole(p, 'image'),
            argType: 'arg_bypointer',
            offset: 0,
            size: 0,
            argIndex: p.index,
            addrmode: 'stateful',
            addrspace: 'image',
            accessType: accessOf(arg.access),
            imageType: IMAGE_TYPE[arg.image],
            ...(transformable ? { imageTransformable: true } : {}),
            typeName,
            type,
            access: arg.access,
          }),
        },
      ];
    case 'sampler': {
      const index = samplerIndex();
      return [
        {
          group: 'sampler',
          size: 0,
          align: 1,
          make: () => ({
            name,
            param,
            role: originRole(p, 'sampler'),
            argType: 'arg_bypointer',
            offset: 0,
            size: 0,
            argIndex: p.index,
            addrmode: 'stateful',
            addrspace: 'sampler',
            accessType: 'readwrite',
            samplerIndex: index,
            typeName,
            type,
          }),
        },
      ];
    }
    case 'queue':
      return [
        {
          group: 'queue',
          size: 0,
          align: 1,
          make: () => ({
            name,
            param,
            role: originRole(p, 'queue'),
            argType: 'none',
            offset: 0,
            size: 0,
            argIndex: p.index,
            typeName,
            type,
          }),
        },
      ];
    case 'pod': {
      const layout = valueLayout(type, SPIR64);
      const c = canonical(type).type;
      if (c.kind === 'record') {
        // The struct's pieces are implicit arguments in IGC: after every explicit by-value argument.
        return [
          {
            group: 'constant_reg',
            size: -1,
            align: 1,
            make: (offset) => {
              const { pieces, end } = structPieces(type, offset, SPIR64);
              const first = pieces[0]?.offset ?? offset;
              return {
                name,
                param,
                role: originRole(p, 'value'),
                argType: 'arg_byvalue',
                offset: first,
                size: end - first,
                argIndex: p.index,
                pieces,
                typeName,
                type,
                layout,
              };
            },
          },
        ];
      }
      const l = layoutOf(type, SPIR64);
      const size = alignTo(l.size, 4);
      return [
        {
          group: 'constant_reg',
          size,
          align: l.align,
          make: (offset) => ({
            name,
            param,
            role: originRole(p, 'value'),
            argType: 'arg_byvalue',
            offset,
            size,
            argIndex: p.index,
            typeName,
            type,
            layout,
          }),
        },
      ];
    }
    case 'event':
    case 'opaque':
      diags.report(Messages.zebinNoArgument, p.span, [typeName, p.name]);
      return [];
    default:
      return assertNever(arg);
  }
}

/** A kernel-wide implicit argument. */
export function workItemArg(a: WorkItemArg | 'private_base_stateless'): Pending {
  const size = a === 'printf_buffer' || a === 'private_base_stateless' ? 8 : a === 'work_dimensions' ? 4 : 12;
  return {
    group: a,
    size,
    align: size === 12 ? 4 : size,
    make: (offset) => ({ name: a, param: null, role: 'hidden', argType: a, offset, size }),
  };
}

export function imageArg(arg: ImageArg, p: Parameter): Pending {
  const role =
    arg === 'image_channel_data_type' || arg === 'image_channel_order'
      ? 'image-format'
      : arg === 'sampler_snap_wa'
        ? 'hidden'
        : 'image-size';
  return {
    group: arg,
    size: 4,
    align: 4,
    make: (offset) => ({
      name: `${arg}.${p.name}`,
      param: null,
      role,
      argType: arg,
      offset,
      size: 4,
      argIndex: p.index,
    }),
  };
}
