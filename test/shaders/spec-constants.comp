#version 450
// Specialization constants of four types, set by name at pipeline creation (or left at their defaults).
layout(local_size_x = 16) in;
layout(constant_id = 1) const int OFFSET = 3;
layout(constant_id = 2) const uint STRIDE = 2u;
layout(constant_id = 4) const float SCALE = 0.5;
layout(constant_id = 7) const bool NEGATE = false;
layout(std430, set = 0, binding = 0) buffer Out { float v[]; } o;
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = float(int(i * STRIDE) + OFFSET) * SCALE;
  o.v[i] = NEGATE ? -x : x;
}
