// HLSL through glslang's HLSL front end: a constant buffer, structured buffers, a push constant.
struct Tint { float3 rgb; float scale; };
cbuffer Params : register(b0) { float a; uint n; float3 offset; };
[[vk::push_constant]] ConstantBuffer<Tint> tint;
StructuredBuffer<float> x : register(t1);
RWStructuredBuffer<float4> y : register(u2);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  if (id.x < n) y[id.x] = float4(a * x[id.x] + offset.x, offset.y, tint.rgb.z * tint.scale, y[id.x].w);
}
