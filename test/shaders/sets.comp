#version 450
// Four descriptor sets, set 2 unused, bindings out of order, a uniform block among storage ones.
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) readonly buffer A { int a[]; };
layout(std430, set = 1, binding = 2) readonly buffer B { int b[]; };
layout(std140, set = 1, binding = 0) uniform Bias { ivec4 bias; uint count; } bias;
layout(std430, set = 3, binding = 1) writeonly buffer C { int c[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < bias.count) c[i] = a[i] * b[i] + bias.bias[i % 4u];
}
