#version 450
// A storage image beside a uniform block: the plan reads it; kernarg's Vulkan host refuses to bind it.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D img;
layout(std140, set = 0, binding = 1) uniform Tint { vec4 color; } tint;
void main() { imageStore(img, ivec2(gl_GlobalInvocationID.xy), tint.color); }
