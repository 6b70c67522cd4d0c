// Real application code, unchanged from test/real/darktable/ (GPL-3.0-or-later, © the darktable
// authors; that folder's README and COPYRIGHT.debian say so): read as text by the page's build.
import darktableBloom from '../../test/real/darktable/bloom.cl?raw';
import darktableColorspace from '../../test/real/darktable/colorspace.h?raw';
import darktableCommon from '../../test/real/darktable/common.h?raw';
import type { HeaderFile } from './paths.js';

/** The kernels of the example picker: each shows one thing layouts get wrong, or how real code looks. */
export interface Example {
  readonly id: string;
  readonly title: string;
  /** File name the core sees: `.cl` is OpenCL C, `.ir` tinytc IR. */
  readonly file: string;
  readonly source: string;
  /** Files the source includes. */
  readonly headers?: readonly HeaderFile[];
  /** The picker's group for examples from real projects, naming their origin and licence. */
  readonly group?: string;
  /** Where the files come from and their licence, shown under the picker while the example is open. */
  readonly licence?: string;
}

const DARKTABLE = 'Real code: darktable 4.2.1 (GPL-3.0-or-later)';

export const EXAMPLES: readonly Example[] = [
  {
    id: 'structs',
    title: 'Structs with padding',
    file: 'kernel.cl',
    source: `// A char before a float3 leaves 15 bytes of padding inside the struct.
typedef struct {
  char tag;
  float3 pos;
  int id;
} Particle;

struct Range { short lo; long hi; };

kernel void advance(global Particle* ps, Particle probe,
                    struct Range r, uchar flags, double dt) {
}
`,
  },
  {
    id: 'vectors',
    title: 'Vectors and float3',
    file: 'kernel.cl',
    source: `// float3 and uchar3 take the space of four elements, aligned as four.
kernel void shade(global float4* out, float3 light, float2 uv,
                  int4 box, uchar3 rgb, float gain, ushort2 size) {
}
`,
  },
  {
    id: 'images',
    title: 'Images and samplers',
    file: 'kernel.cl',
    source: `// A literal sampler, a sampler argument and images of every access.
constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE |
                             CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void blur(read_only image2d_t src, write_only image2d_t dst,
                 sampler_t linear, constant float* weights, int taps) {
  read_imagef(src, nearest, (int2)(0, 0));
}
`,
  },
  {
    id: 'local',
    title: 'Local memory',
    file: 'kernel.cl',
    source: `// Local pointers carry no bytes on OpenCL: the host chooses their size.
kernel void reduce(global const float* in, global float* out,
                   local float* scratch, local int* counts, uint n)
  __attribute__((reqd_work_group_size(64, 1, 1))) {
}
`,
  },
  {
    id: 'tinytc',
    title: 'tinytc memref and group',
    file: 'kernel.ir',
    source: `; A memref becomes a pointer plus one long per dynamic shape or stride;
; a group becomes a pointer table plus tables of its dynamic extents.
func @scale(%alpha: f32, %A: memref<f32x16x?>, %Bs: group<memref<f64x?x4>, offset: ?>) {}
`,
  },
  {
    id: 'darktable-bloom',
    title: 'bloom.cl with common.h and colorspace.h',
    file: 'bloom.cl',
    source: darktableBloom,
    headers: [
      { path: 'common.h', text: darktableCommon },
      { path: 'colorspace.h', text: darktableColorspace },
    ],
    group: DARKTABLE,
    licence:
      "darktable 4.2.1's bloom.cl, common.h and colorspace.h, unchanged: GPL-3.0-or-later, © the darktable authors " +
      '(test/real/darktable/COPYRIGHT.debian).',
  },
];
