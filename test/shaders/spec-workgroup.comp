#version 450
// The work-group width is spec constant 0 (local_size_x_id): the launch sets it from the local
// size; shared memory is sized by it, and each group writes its sum and its size.
layout(local_size_x_id = 0, local_size_y = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint data[]; } inp;
layout(std430, set = 0, binding = 1) buffer Sums { uint groupSize; uint sums[]; } outp;
shared uint partial[gl_WorkGroupSize.x];
void main() {
  uint l = gl_LocalInvocationID.x;
  partial[l] = inp.data[gl_GlobalInvocationID.x];
  barrier();
  if (l == 0u) {
    uint s = 0u;
    for (uint k = 0u; k < gl_WorkGroupSize.x; k++) s += partial[k];
    outp.sums[gl_WorkGroupID.x] = s;
    if (gl_WorkGroupID.x == 0u) outp.groupSize = gl_WorkGroupSize.x;
  }
}
