#version 450
// 64-bit integers and doubles in a storage block and a push constant (JSON: digit strings past 2^53).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Wide { uint64_t u[4]; int64_t s; double d[2]; } w;
layout(push_constant) uniform P { uint64_t add; } p;
void main() {
  for (int k = 0; k < 4; k++) w.u[k] += p.add;
  w.s = -w.s * 3;
  w.d[0] = w.d[0] * w.d[1];
}
