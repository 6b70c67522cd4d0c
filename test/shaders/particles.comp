#version 450
// std430: a struct of vec3, float, vec3, uint (32 bytes) in a runtime-sized array after two
// scalars (it starts at 16), read and written in place.
layout(local_size_x = 4) in;
struct Particle { vec3 pos; float mass; vec3 vel; uint id; };
layout(std430, set = 0, binding = 0) buffer Particles { uint count; float dt; Particle p[]; } ps;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < ps.count) {
    Particle q = ps.p[i];
    q.vel += vec3(0.0, -9.5, 0.0) * ps.dt / q.mass;
    q.pos += q.vel * ps.dt;
    q.id = q.id * 2u + 1u;
    ps.p[i] = q;
  }
}
