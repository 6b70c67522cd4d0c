#version 450
// Storage buffers (one without an instance name: its argument is the block's type name, X) and a
// push-constant block of a float and a uint.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) buffer Y { float y[]; } ys;
layout(push_constant) uniform Params { float a; uint n; } params;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < params.n) ys.y[i] = params.a * x[i] + ys.y[i];
}
