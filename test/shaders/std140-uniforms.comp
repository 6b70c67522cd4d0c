#version 450
// std140: a float packed after a vec3, a struct array whose vec3 members sit at 0 and 16 (stride
// 32), a mat3 of 16-byte columns, a float array of stride 16, a vec3 last.
layout(local_size_x = 4) in;
struct Light { vec3 dir; float power; vec3 color; };
layout(std140, set = 0, binding = 0) uniform Scene {
  vec3 ambient;
  float gain;
  Light lights[2];
  mat3 rot;
  float weights[4];
  vec3 tail;
} scene;
layout(std430, set = 0, binding = 1) buffer Out { vec4 result[]; } outp;
void main() {
  uint i = gl_GlobalInvocationID.x;
  Light l = scene.lights[i % 2u];
  vec3 c = scene.ambient + l.color * (l.power * scene.gain) + (scene.rot * l.dir) * scene.weights[i] + scene.tail;
  outp.result[i] = vec4(c, float(i));
}
