/** Elements one buffer, memref or image may hold in `kernarg run`: every one is printed back as JSON. */
export const RUN_MAX_ELEMENTS = 1 << 24;

/** The `kernarg run --args` JSON contract, as `kernarg --help` prints it (the README says the same at length). */
export const RUN_JSON_HELP = `run --args <file.json>: one object, a key per parameter (every parameter once, no others):
  scalar          3, -1.5; 64-bit integers past 2^53 as digit strings: "9007199254740993"
  vector          [1, 2, 3, 4]            (float3 takes 3 values; long vectors take digit strings too)
  struct / union  {"a": 1, "b": [1, 2]}   field by field, nested; a union takes exactly one field
  buffer          {"buffer": "float", "data": [1, 2]}  or  {"buffer": "int", "size": 64}
                  element types: char uchar short ushort int uint long ulong float double (the
                  pointee's: a vector's element, an enum's integer, ushort for half; any for structs
                  and void); floats also take "NaN", "Infinity", "-Infinity"
  local pointer   {"local": <bytes>}
  image           {"image": {"width": 4, "height": 3, "depth"?: 2, "channelOrder": "RGBA",
                  "channelType": "FLOAT", "data"?: [...]}}  image1d_t, image2d_t, image3d_t;
                  data: width*height*depth*channels values of the channel type's element
  sampler         {"sampler": {"normalized"?: false, "addressing"?: "clamp_to_edge",
                  "filter"?: "nearest"}}  addressing: none clamp_to_edge clamp repeat mirrored_repeat
  tinytc memref   {"memref": {"type"?: "f32", "data": [...] or "size": n, "shape": [...], "stride"?: [...]}}
                  (type defaults to the signature's element type and must match it)
  tinytc group    {"group": [<memref> or {"memref": <memref>}, ...], "offset"?: n}
                  (--howmany at most the member count)
  tinytc scalar   i8 i16 i32 f32 f64 as numbers; i64 and index as numbers or digit strings
  SPIR-V shader   a key per resource, named as the shader names it: the block's instance name,
                  else its type name, else set<S>_binding<B>. A uniform or storage block is
                  {"member": value, ...} as a struct, laid out as the module states (std140,
                  std430; a storage block's members may be left out: zeroed); a matrix is a list
                  of columns; a runtime-sized last member is a list or {"size": n}. The push-constant block is one object the same way (push_constants
                  when unnamed). A specialization constant is its value by name (optional: the
                  module's default otherwise; constant_id_<N> when unnamed)
Output: {"device", "args": the arguments after the run (buffers, memrefs, group members and images
read back; 64-bit integers past 2^53 as digit strings), "timeMs"}. Every value is checked against the
plan and the device before anything is enqueued; a refusal names the kernel and the argument, exit 1.
At most ${RUN_MAX_ELEMENTS} elements per array.
Headers (.cl input): kernarg's preprocessor reads every #include (the including file's folder first,
then each -I in order; -D and -U in order) and the driver builds from exactly those files, laid out
as found in a folder of their own, so run works from any folder; --capture stores every header.
`;
