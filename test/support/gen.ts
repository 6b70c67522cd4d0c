import fc from 'fast-check';

/**
 * Random OpenCL C programs for oracle tests: structs and unions (nested, arrays, packed,
 * aligned), typedef chains, enums, and kernels whose parameters cover every argument kind.
 * Specs hold raw choices; `render` resolves references, so shrinking stays meaningful.
 */

const SCALARS = ['char', 'uchar', 'short', 'ushort', 'int', 'uint', 'long', 'ulong', 'float', 'double'] as const;
const SPELLINGS: Record<string, string[]> = {
  char: ['char', 'signed char'],
  uchar: ['uchar', 'unsigned char'],
  short: ['short', 'short int', 'signed short'],
  ushort: ['ushort', 'unsigned short', 'unsigned short int'],
  int: ['int', 'signed', 'signed int'],
  uint: ['uint', 'unsigned int', 'unsigned'],
  long: ['long', 'long int', 'signed long'],
  ulong: ['ulong', 'unsigned long'],
  float: ['float'],
  double: ['double'],
};
const VEC_ELEMS = [
  'char',
  'uchar',
  'short',
  'ushort',
  'int',
  'uint',
  'long',
  'ulong',
  'float',
  'double',
  'half',
] as const;
const VEC_SIZES = [2, 3, 4, 8, 16] as const;
const IMAGES = [
  'image1d_t',
  'image1d_array_t',
  'image1d_buffer_t',
  'image2d_t',
  'image2d_array_t',
  'image3d_t',
  'image2d_depth_t',
  'image2d_array_depth_t',
] as const;

export type TypeChoice =
  | { kind: 'scalar'; s: number; spelling: number }
  | { kind: 'vector'; e: number; n: number }
  | { kind: 'struct'; ref: number }
  | { kind: 'typedef'; ref: number }
  | { kind: 'enum'; ref: number };

export interface FieldSpec {
  type: TypeChoice;
  arrayLen: number;
  packed: boolean;
  aligned: number;
}
export interface StructSpec {
  union: boolean;
  packed: boolean;
  aligned: number;
  attrFirst: boolean;
  fields: FieldSpec[];
  typedefOnly: boolean;
}
export interface TypedefSpec {
  target: TypeChoice;
  chain: number;
}
export interface EnumSpec {
  values: number[];
}
export type ParamSpec =
  | {
      kind: 'ptr';
      space: number;
      pointee: TypeChoice | null;
      isConst: boolean;
      isVolatile: boolean;
      isRestrict: boolean;
      arrayForm: boolean;
      spaceSpelling: boolean;
      /** Pointer to array: `T (*p)[a][b]` (empty: a plain pointer). */
      dims: number[];
      /** `(*(p))` instead of `(*p)`, and `*const p`. */
      paren: boolean;
      constPointer: boolean;
      /** Point to a typedef'd array (`typedef T A[n]; A *p`) instead. */
      viaArrayTypedef: boolean;
    }
  | { kind: 'ptrTypedef'; space: number; pointee: TypeChoice; isConst: boolean }
  | { kind: 'sized' }
  | { kind: 'value'; type: TypeChoice; isConst: boolean }
  | { kind: 'image'; image: number; access: number; spelling: boolean }
  | { kind: 'sampler' };
export interface KernelSpec {
  params: ParamSpec[];
  reqd: [number, number, number] | null;
  hint: [number, number, number] | null;
  vecHint: TypeChoice | null;
  attrAfter: boolean;
  kernelSpelling: boolean;
  /** A prototype before the definition: other parameter names (or none) and other top-level qualifiers. */
  redeclare: 'none' | 'renamed' | 'abstract';
  /** Index into GUARDS: the kernel exists only where that predefined macro condition holds. */
  guard: number | null;
}

/** Conditions on predefined macros that differ between targets and OpenCL C versions. */
export const GUARDS = [
  'defined(__IMAGE_SUPPORT__)',
  'defined(__SPIR64__)',
  'defined(__SPIR__)',
  'defined(__AMDGCN__)',
  'defined(__opencl_c_generic_address_space)',
  'defined(cl_khr_fp64)',
  '__OPENCL_C_VERSION__ >= 200',
  'defined(cles_khr_int64)',
  'defined(cl_khr_subgroups)',
  'defined(__ENDIAN_LITTLE__) && CL_VERSION_2_0 == 200',
  '!defined(__opencl_c_images)',
];
export interface ProgramSpec {
  structs: StructSpec[];
  enums: EnumSpec[];
  typedefs: TypedefSpec[];
  kernels: KernelSpec[];
}

const typeChoice: fc.Arbitrary<TypeChoice> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('scalar' as const), s: fc.nat(SCALARS.length - 1), spelling: fc.nat(2) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('vector' as const),
      e: fc.nat(VEC_ELEMS.length - 2),
      n: fc.nat(VEC_SIZES.length - 1),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('struct' as const), ref: fc.nat(7) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('typedef' as const), ref: fc.nat(7) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('enum' as const), ref: fc.nat(3) }) },
);

const alignChoice = fc.constantFrom(0, 0, 0, 2, 4, 8, 16, 32);

const structSpec: fc.Arbitrary<StructSpec> = fc.record({
  union: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  packed: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  aligned: alignChoice,
  attrFirst: fc.boolean(),
  fields: fc.array(
    fc.record({
      type: typeChoice,
      arrayLen: fc.constantFrom(0, 0, 0, 1, 2, 3, 5),
      packed: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      aligned: fc.constantFrom(0, 0, 0, 0, 2, 4, 8, 16),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  typedefOnly: fc.boolean(),
});

const paramSpec: fc.Arbitrary<ParamSpec> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('ptr' as const),
      space: fc.nat(2),
      pointee: fc.option(typeChoice, { freq: 8 }),
      isConst: fc.boolean(),
      isVolatile: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      isRestrict: fc.boolean(),
      arrayForm: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      spaceSpelling: fc.boolean(),
      dims: fc.oneof(
        { weight: 3, arbitrary: fc.constant<number[]>([]) },
        { weight: 2, arbitrary: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 3 }) },
      ),
      paren: fc.boolean(),
      constPointer: fc.boolean(),
      viaArrayTypedef: fc.oneof(
        { weight: 3, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('ptrTypedef' as const),
      space: fc.nat(2),
      pointee: typeChoice,
      isConst: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sized' as const) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('value' as const), type: typeChoice, isConst: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('image' as const),
      image: fc.nat(IMAGES.length - 1),
      access: fc.nat(2),
      spelling: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sampler' as const) }) },
);

const dims = fc.tuple(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 4 }));

export const programSpec: fc.Arbitrary<ProgramSpec> = fc.record({
  structs: fc.array(structSpec, { maxLength: 5 }),
  enums: fc.array(
    fc.record({ values: fc.array(fc.integer({ min: -5, max: 100000 }), { minLength: 1, maxLength: 4 }) }),
    { maxLength: 2 },
  ),
  typedefs: fc.array(fc.record({ target: typeChoice, chain: fc.integer({ min: 1, max: 3 }) }), { maxLength: 4 }),
  kernels: fc.array(
    fc.record({
      params: fc.array(paramSpec, { maxLength: 8 }),
      reqd: fc.option(dims, { freq: 4 }),
      hint: fc.option(dims, { freq: 5 }),
      vecHint: fc.option(
        fc.oneof(
          fc.record({ kind: fc.constant('scalar' as const), s: fc.nat(SCALARS.length - 1), spelling: fc.constant(0) }),
          fc.record({
            kind: fc.constant('vector' as const),
            e: fc.nat(VEC_ELEMS.length - 2),
            n: fc.nat(VEC_SIZES.length - 1),
          }),
        ),
        { freq: 5 },
      ),
      attrAfter: fc.boolean(),
      kernelSpelling: fc.boolean(),
      redeclare: fc.constantFrom('none' as const, 'none' as const, 'renamed' as const, 'abstract' as const),
      guard: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat(GUARDS.length - 1) }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
});

export interface Rendered {
  source: string;
  /** Names of the record types declared, for layout probes: spelling usable in sizeof. */
  records: { spelling: string; fields: string[] }[];
  kernelCount: number;
}

/** Renders a spec to OpenCL C. `prefix` keeps names unique when programs are concatenated. */
export function render(spec: ProgramSpec, prefix = 'g', opts: { images?: boolean } = {}): Rendered {
  const lines: string[] = [];
  const structNames: string[] = [];
  const records: Rendered['records'] = [];
  const enumNames: string[] = [];
  const typedefNames: string[] = [];
  const typeText = (t: TypeChoice, available: { structs: number; typedefs: number }): string => {
    switch (t.kind) {
      case 'scalar': {
        const s = SCALARS[t.s];
        const sp = SPELLINGS[s];
        return sp[t.spelling % sp.length];
      }
      case 'vector':
        return `${VEC_ELEMS[t.e]}${VEC_SIZES[t.n]}`;
      case 'struct':
        if (available.structs === 0) return 'int';
        return structNames[t.ref % available.structs];
      case 'typedef':
        if (available.typedefs === 0) return 'float';
        return typedefNames[t.ref % available.typedefs];
      case 'enum':
        if (enumNames.length === 0) return 'short';
        return enumNames[t.ref % enumNames.length];
    }
  };
  spec.enums.forEach((e, i) => {
    const name = `${prefix}_E${i}`;
    const uniq = [...new Set(e.values)];
    lines.push(`enum ${name} { ${uniq.map((v, j) => `${prefix}_E${i}_${j} = ${v}`).join(', ')} };`);
    enumNames.push(`enum ${name}`);
  });
  spec.structs.forEach((s, i) => {
    const tag = `${prefix}_S${i}`;
    const kw = s.union ? 'union' : 'struct';
    const attrs: string[] = [];
    if (s.packed) attrs.push('__attribute__((packed))');
    if (s.aligned) attrs.push(`__attribute__((aligned(${s.aligned})))`);
    const fields = s.fields.map((f, j) => {
      const ft = typeText(f.type, { structs: i, typedefs: 0 });
      const fa: string[] = [];
      if (f.packed) fa.push('__attribute__((packed))');
      if (f.aligned) fa.push(`__attribute__((aligned(${f.aligned})))`);
      return `${ft} f${j}${f.arrayLen ? `[${f.arrayLen}]` : ''}${fa.length ? ' ' + fa.join(' ') : ''};`;
    });
    const head = s.attrFirst && attrs.length ? `${kw} ${attrs.join(' ')} ${tag}` : `${kw} ${tag}`;
    const tail = !s.attrFirst && attrs.length ? ' ' + attrs.join(' ') : '';
    if (s.typedefOnly) {
      lines.push(`typedef ${head} { ${fields.join(' ')} }${tail} ${tag}_t;`);
      structNames.push(`${tag}_t`);
    } else {
      lines.push(`${head} { ${fields.join(' ')} }${tail};`);
      structNames.push(`${kw} ${tag}`);
    }
    records.push({ spelling: structNames[i], fields: s.fields.map((_, j) => `f${j}`) });
  });
  spec.typedefs.forEach((td, i) => {
    let target = typeText(td.target, { structs: structNames.length, typedefs: i });
    for (let c = 0; c < td.chain; c++) {
      const name = c === td.chain - 1 ? `${prefix}_T${i}` : `${prefix}_T${i}_${c}`;
      lines.push(`typedef ${target} ${name};`);
      target = name;
    }
    typedefNames.push(`${prefix}_T${i}`);
  });
  const all = { structs: structNames.length, typedefs: typedefNames.length };
  const SPACES = [
    ['global', '__global'],
    ['constant', '__constant'],
    ['local', '__local'],
  ];
  const ACCESS = [
    ['read_only', '__read_only'],
    ['write_only', '__write_only'],
    ['', ''],
  ];
  // A struct sized with abstract declarators in sizeof and a cast: pointer width and array shape reach its layout.
  lines.push(
    `typedef struct { char c[sizeof(global float (*)[2]) + sizeof(int (*global (*)[3])[4]) / 8]; int i[(int)2.5f]; ` +
      `} ${prefix}_Z;`,
  );
  spec.kernels.forEach((k, ki) => {
    // `rename` gives the prototype's spelling: other names (or none) and other top-level qualifiers.
    const param = (p: ParamSpec, pi: number, proto: boolean): string => {
      const name = proto ? (k.redeclare === 'abstract' ? '' : `q${pi}`) : `p${pi}`;
      switch (p.kind) {
        case 'ptr': {
          const space = SPACES[p.space][p.spaceSpelling ? 1 : 0];
          const pointee = p.pointee ? typeText(p.pointee, all) : 'void';
          const q = [p.isConst ? 'const' : '', p.isVolatile ? 'volatile' : ''].filter(Boolean).join(' ');
          const ptrQuals = [p.isRestrict ? 'restrict' : '', p.constPointer !== proto ? 'const' : '']
            .filter(Boolean)
            .join(' ');
          const star = `*${ptrQuals ? ptrQuals + ' ' : ''}${name}`.trim();
          if (p.dims.length && pointee !== 'void') {
            const dims = p.dims.map((d) => `[${d}]`).join('');
            if (p.viaArrayTypedef) {
              const arr = `${prefix}_A${ki}_${pi}`;
              if (!proto) arrays.push(`typedef ${q ? q + ' ' : ''}${pointee} ${arr}${dims};`);
              return `${space} ${arr} ${star}`;
            }
            return (
              `${space} ${q ? q + ' ' : ''}${pointee} ` +
              `(${p.paren && name ? `*${ptrQuals ? ptrQuals + ' ' : ''}(${name})` : star})${dims}`
            );
          }
          if (p.arrayForm && pointee !== 'void') return `${space} ${q ? q + ' ' : ''}${pointee} ${name}[]`;
          return `${space} ${q ? q + ' ' : ''}${pointee} ${star}`;
        }
        case 'ptrTypedef': {
          const td = `${prefix}_P${ki}_${pi}`;
          if (!proto)
            arrays.push(
              `typedef ${SPACES[p.space][0]} ${p.isConst ? 'const ' : ''}${typeText(p.pointee, all)} *${td};`,
            );
          return `${td} ${name}`;
        }
        case 'sized':
          return `${proto ? 'const ' : ''}${prefix}_Z ${name}`;
        case 'value':
          return `${p.isConst !== proto ? 'const ' : ''}${typeText(p.type, all)} ${name}`;
        case 'image': {
          if (opts.images === false) return `int ${name}`;
          const acc = ACCESS[p.access][p.spelling ? 1 : 0];
          return `${acc ? acc + ' ' : ''}${IMAGES[p.image]} ${name}`;
        }
        case 'sampler':
          return opts.images === false ? `uint ${name}` : `sampler_t ${name}`;
      }
    };
    const arrays: string[] = [];
    const params = k.params.map((p, pi) => param(p, pi, false));
    lines.push(...arrays);
    const guard = k.guard === null ? undefined : GUARDS[k.guard];
    if (guard) lines.push(`#if ${guard}`);
    if (k.redeclare !== 'none')
      lines.push(
        `${k.kernelSpelling ? '__kernel' : 'kernel'} ` +
          `void ${prefix}_k${ki}(${k.params.map((p, pi) => param(p, pi, true)).join(', ') || 'void'});`,
      );
    const attrs: string[] = [];
    if (k.reqd) attrs.push(`__attribute__((reqd_work_group_size(${k.reqd.join(', ')})))`);
    if (k.hint) attrs.push(`__attribute__((work_group_size_hint(${k.hint.join(', ')})))`);
    if (k.vecHint) attrs.push(`__attribute__((vec_type_hint(${typeText(k.vecHint, all)})))`);
    const kw = k.kernelSpelling ? '__kernel' : 'kernel';
    const sig = `${prefix}_k${ki}(${params.join(', ') || 'void'})`;
    lines.push(k.attrAfter ? `${kw} void ${sig} ${attrs.join(' ')} { }` : `${kw} ${attrs.join(' ')} void ${sig} { }`);
    if (guard) lines.push('#endif');
  });
  return { source: lines.join('\n') + '\n', records, kernelCount: spec.kernels.length };
}

/** Deterministic samples: the seed comes from KERNARG_FC_SEED or a fixed default. */
export function samples<T>(arb: fc.Arbitrary<T>, count: number, defaultSeed: number): { values: T[]; seed: number } {
  const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : defaultSeed;
  return { values: fc.sample(arb, { seed, numRuns: count }), seed };
}

/**
 * Runs `check` over `values` in batches of `size` and sums what it returns; a failure names the
 * seed and the batch, so the run can be reproduced with KERNARG_FC_SEED.
 */
export function inBatches<T>(
  values: readonly T[],
  size: number,
  seed: number,
  check: (batch: readonly T[], start: number, index: number) => number,
): number {
  let total = 0;
  for (let b = 0; b < values.length; b += size) {
    try {
      total += check(values.slice(b, b + size), b, b / size);
    } catch (e) {
      throw new Error(`seed ${seed}, batch ${b / size}: ${(e as Error).message}`);
    }
  }
  return total;
}

/** One source of several generated programs, their names numbered from `start` after `prefix`. */
export function renderBatch(
  batch: readonly ProgramSpec[],
  start: number,
  prefix: string,
  opts: { images?: boolean } = {},
): string {
  return batch.map((spec, i) => render(spec, `${prefix}${start + i}`, opts).source).join('\n');
}

export const STDS = ['CL1.2', 'CL2.0', 'CL3.0'] as const;
