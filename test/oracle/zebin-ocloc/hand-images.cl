// Images and samplers: binding-table entries in IGC's order (samplers, then images by kind), and the
// per-image implicit words the queries ask for.
kernel void sizes(read_only image2d_t a, write_only image3d_t b, read_write image1d_t c, global int *g) {
  g[0] = get_image_width(a) + get_image_height(a) + get_image_depth(b) + get_image_channel_order(c) + get_image_channel_data_type(a);
}
kernel void kinds(read_only image2d_array_t a, image1d_buffer_t b, read_only image2d_depth_t d, sampler_t s) { }
kernel void dims(read_only image2d_array_t a, read_only image3d_t b, global int *g) { g[0] = get_image_array_size(a) + get_image_dim(b).y + get_image_width(b); }
kernel void dim2(read_only image2d_t a, global int *g) { g[0] = get_image_dim(a).x; }
kernel void sampled(read_only image2d_t a, sampler_t s, global float *g) { g[0] = read_imagef(a, s, (float2)(0.5f, 0.5f)).x; }
kernel void sampled_int(read_only image2d_t a, sampler_t s, global float *g) { g[0] = read_imagef(a, s, (int2)(1, 1)).x; }
kernel void unsampled(read_only image2d_t a, global float *g) { g[0] = read_imagef(a, (int2)(1, 1)).x; }
kernel void volume_int(read_only image3d_t img, sampler_t s, global float4 *out, int4 c) { *out = read_imagef(img, s, c); }
kernel void volume_float(read_only image3d_t img, sampler_t s, global float4 *out, float4 c) { *out = read_imagef(img, s, c); }
kernel void volume_plain(read_only image3d_t img, global float4 *out, int4 c) { *out = read_imagef(img, c); }
kernel void two_samplers(sampler_t s0, read_only image2d_t a, sampler_t s1) { }
