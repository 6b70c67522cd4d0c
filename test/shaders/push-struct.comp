#version 450
// A push-constant block holding a struct, a vec2, an int and a bool (a 32-bit word in a block).
layout(local_size_x = 8, local_size_y = 2) in;
struct Window { ivec2 origin; uvec2 size; };
layout(push_constant) uniform Push { Window win; vec2 scale; int bias; bool flip; } pc;
layout(std430, set = 0, binding = 0) buffer Grid { int cells[]; } grid;
void main() {
  uvec2 p = gl_GlobalInvocationID.xy;
  uint w = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  int v = int(p.x) * int(pc.scale.x) + int(p.y) * int(pc.scale.y) + pc.bias;
  if (p.x < pc.win.size.x && p.y < pc.win.size.y) v += pc.win.origin.x * 1000 + pc.win.origin.y;
  grid.cells[p.y * w + p.x] = pc.flip ? -v : v;
}
