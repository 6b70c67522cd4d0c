/** The kernels of the example picker: each shows one thing layouts get wrong. */
export interface Example {
  readonly id: string;
  readonly title: string;
  /** File name the core sees: `.cl` is OpenCL C, `.ir` tinytc IR. */
  readonly file: string;
  readonly source: string;
}

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
];
