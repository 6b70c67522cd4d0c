/**
 * GLSL compute shaders of our own for the SPIR-V reader's oracle (glslangValidator -V, then
 * spirv-cross --reflect): storage buffers with runtime arrays, std140 uniforms with vec3 and
 * nested structs and matrices, push constants, several sets, storage and sampled images,
 * separate samplers, texel buffers, descriptor arrays, specialization constants (the work-group
 * size among them), std430 and scalar-free blocks.
 */
export const SHADERS: Record<string, string> = {
  'std140-and-push': `#version 450
layout(local_size_x = 8, local_size_y = 4) in;
struct P { vec3 pos; float w; ivec2 id; };
layout(std140, set = 0, binding = 0) uniform U { vec3 a; float b; mat4 m; P p[2]; vec3 c; } u;
layout(std430, set = 0, binding = 1) buffer B { uint n; vec3 v[]; } b;
layout(push_constant) uniform PC { mat2 r; vec3 o; int k; } pc;
layout(constant_id = 3) const int K = 4;
layout(constant_id = 5) const float F = 1.5;
void main() { b.v[gl_GlobalInvocationID.x] = u.a + u.p[1].pos + pc.o + vec3(K) * F + u.m[0].xyz + vec3(pc.r[0], 0.0) + u.c; }
`,
  'images-and-sets': `#version 450
layout(local_size_x = 16) in;
layout(set = 1, binding = 0, rgba8) uniform writeonly image2D img;
layout(set = 1, binding = 1) uniform sampler2D tex;
layout(set = 2, binding = 3) uniform sampler s;
layout(set = 2, binding = 4) uniform texture2D t;
layout(set = 3, binding = 0, r32f) uniform readonly imageBuffer ib;
layout(set = 3, binding = 1) uniform samplerBuffer sb;
layout(set = 3, binding = 2) uniform sampler2D texs[4];
void main() { imageStore(img, ivec2(0), texture(sampler2D(t, s), vec2(0)) + texture(tex, vec2(0)) + imageLoad(ib, 0) + texelFetch(sb, 0) + texture(texs[2], vec2(0))); }
`,
  'spec-workgroup': `#version 450
layout(local_size_x_id = 0, local_size_y = 2, local_size_z_id = 2) in;
layout(constant_id = 7) const uint N = 64u;
layout(constant_id = 8) const bool FLAG = true;
layout(std430, set = 0, binding = 0) buffer Out { float data[]; };
layout(std430, set = 0, binding = 2) readonly buffer In { dvec2 d; float arr[N]; int tail; } inb;
void main() { if (FLAG) data[gl_GlobalInvocationID.x] = float(inb.d.x) + inb.arr[N - 1u] + float(inb.tail); }
`,
  'std430-structs': `#version 450
layout(local_size_x = 64) in;
struct Inner { float x; vec2 y; };
struct Outer { Inner i[3]; mat3 m; uvec3 u; };
layout(std430, set = 4, binding = 7) buffer S { Outer o; Outer more[]; } s;
layout(std140, set = 4, binding = 8) uniform T { Inner i[2]; float f[3]; mat3x2 mm; } t;
layout(push_constant) uniform Push { uint count; float scale; } push;
void main() { s.more[gl_GlobalInvocationID.x].i[1].x = t.i[1].y.x * push.scale + t.f[2] + t.mm[1].y + float(push.count) + s.o.m[2].z + float(s.o.u.y); }
`,
};
