/** How bad a diagnostic is. */
export type Severity = 'error' | 'warning' | 'note';

export interface Message {
  readonly code: string;
  readonly severity: Severity;
  readonly text: string;
}

const e = (code: string, text: string): Message => ({ code, severity: 'error', text });
const w = (code: string, text: string): Message => ({ code, severity: 'warning', text });

/**
 * Every diagnostic kernarg can give, by phase. Codes are stable: KA1xxx lexing and
 * preprocessing, KA2xxx parsing, KA3xxx semantic checks, KA4xxx targets, KA5xxx options.
 * `{n}` is replaced by the n-th argument.
 */
export const Messages = {
  // Lexing and preprocessing
  unterminatedComment: e('KA1001', 'unterminated /* comment'),
  unterminatedChar: e('KA1002', "missing terminating ' character"),
  unterminatedString: e('KA1003', 'missing terminating " character'),
  strayCharacter: e('KA1004', "stray '{0}' in program"),
  invalidDirective: e('KA1010', "invalid preprocessing directive '#{0}'"),
  macroNameMissing: e('KA1011', 'macro name missing'),
  macroNameNotIdentifier: e('KA1012', 'macro name must be an identifier'),
  macroRedefined: w('KA1013', "'{0}' macro redefined"),
  macroParamList: e('KA1014', 'invalid macro parameter list: {0}'),
  macroArgCount: e('KA1015', "macro '{0}' {1}"),
  macroUnterminatedCall: e('KA1016', "unterminated argument list invoking macro '{0}'"),
  hashNotFollowedByParam: e('KA1017', "'#' is not followed by a macro parameter"),
  hashHashAtEdge: e('KA1018', "'##' cannot appear at either end of a macro expansion"),
  pasteInvalid: e('KA1019', "pasting formed '{0}', an invalid preprocessing token"),
  unterminatedConditional: e('KA1020', 'unterminated conditional directive'),
  elseWithoutIf: e('KA1021', '#{0} without #if'),
  elseAfterElse: e('KA1022', '#{0} after #else'),
  extraTokens: w('KA1023', 'extra tokens at end of #{0} directive'),
  ppExprExpected: e('KA1030', 'expected value in expression'),
  ppExprInvalid: e('KA1031', 'invalid token in preprocessor expression: {0}'),
  ppDivByZero: e('KA1032', 'division by zero in preprocessor expression'),
  ppMissingParen: e('KA1033', "expected ')' in preprocessor expression"),
  ppDefinedNeedsIdent: e('KA1034', "operator 'defined' requires an identifier"),
  ppInvalidNumber: e('KA1035', "invalid integer constant '{0}' in preprocessor expression"),
  ppColonExpected: e('KA1036', "expected ':' in conditional expression"),
  includeExpectsFile: e('KA1040', '#include expects "FILENAME" or <FILENAME>'),
  includeNotFound: e('KA1041', "'{0}' file not found"),
  includeTooDeep: e('KA1042', '#include nested too deeply'),
  userError: e('KA1050', '{0}'),
  userWarning: w('KA1051', '{0}'),
  lineDirective: e('KA1052', '#line directive requires a positive integer argument'),
  pragmaExtension: w('KA1053', "expected 'OPENCL EXTENSION <name> : enable|disable'"),
  unknownExtension: w('KA1054', "unsupported OpenCL extension '{0}' - ignoring"),
  macroExpansionTooDeep: e('KA1055', 'macro expansion is too large or too deep'),
  macroArgsTooDeep: e('KA1060', 'macro arguments nested more than {0} levels deep'),
  includeUnreadable: e('KA1061', "cannot read '{0}': {1}"),
  // Parsing
  expected: e('KA2001', 'expected {0}'),
  expectedButFound: e('KA2002', "expected {0}, found '{1}'"),
  unexpectedEof: e('KA2003', 'unexpected end of file: expected {0}'),
  unmatchedBrace: e('KA2004', "expected '}' to match this '{'"),
  unknownType: e('KA2010', "unknown type name '{0}'"),
  duplicateSpecifier: e('KA2011', "duplicate '{0}' declaration specifier"),
  conflictingSpecifiers: e('KA2012', "cannot combine '{0}' with '{1}'"),
  invalidVectorType: e('KA2013', "'{0}' is not a valid OpenCL vector type"),
  unsupportedType: e('KA2014', "'{0}' is not supported in OpenCL C"),
  typeNeedsVersion: e('KA2015', "'{0}' needs OpenCL C 2.0 or later (the compilation uses {1})"),
  incompleteType: e('KA2016', "field has incomplete type '{0}'"),
  badArraySize: e('KA2017', 'array size must be a positive integer constant, not {0}'),
  unknownAttribute: w('KA2018', "unknown attribute '{0}' ignored"),
  badAttributeArgs: e('KA2019', "'{0}' attribute {1}"),
  constExprInvalid: e('KA2020', 'expression is not an integer constant expression: {0}'),
  undeclaredIdentifier: e('KA2021', "use of undeclared identifier '{0}'"),
  noMember: e('KA2022', "no member named '{0}' in '{1}'"),
  alignmentTooLarge: e('KA2030', 'requested alignment must be {0} bytes or smaller'),
  objectTooLarge: e('KA2031', "'{0}' is larger than kernarg's limit of 2^50 bytes for exact sizes"),
  constantTooLarge: e(
    'KA2032',
    "a program-scope variable of type '{0}' starts with {1} bytes, past kernarg's limit of {2} bytes for the initial bytes it holds",
  ),
  tooDeep: e(
    'KA2023',
    'nesting level exceeded the maximum of {0} (declarators, initializers, expressions and statements)',
  ),
  arrayTooLarge: e('KA2041', 'array is too large ({0} elements)'),
  // Semantic checks
  redefinition: e('KA3001', "redefinition of '{0}'"),
  conflictingTypes: e('KA3002', "conflicting types for '{0}'"),
  kernelReturn: e('KA3003', 'kernel must have void return type'),
  kernelParamType: e('KA3004', "'{0}' cannot be used as the type of a kernel parameter"),
  kernelPointerSpace: e(
    'KA3005',
    "pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space",
  ),
  kernelPointerToPointer: e('KA3006', 'kernel parameter cannot be declared as a pointer to a pointer'),
  recordWithPointers: e('KA3007', '{0} kernel parameters may not contain pointers'),
  halfByValue: e('KA3008', "declaring function parameter of type '__private half' is not allowed; did you forget * ?"),
  bitfieldsDisabled: e('KA3009', 'bit-fields are not supported in OpenCL'),
  invalidFieldType: e('KA3010', "the '{0}' type cannot be used to declare a structure or union field"),
  pointerToOpaque: e('KA3011', "pointer to type '{0}' is invalid in OpenCL"),
  accessQualifierOnNonImage: e('KA3012', 'access qualifier can only be used for pipe and image type'),
  multipleAddressSpaces: e('KA3013', 'multiple address spaces specified for type'),
  programScopeSpace: e('KA3014', 'program scope variable must reside in {0} address space'),
  constantNeedsInit: e('KA3015', 'variable in constant address space must be initialized'),
  initNotConstant: e('KA3016', 'initializer element is not a compile-time constant: {0}'),
  excessInitializers: w('KA3017', 'excess elements in {0} initializer'),
  samplerInit: e('KA3018', 'sampler_t initialization requires a 32-bit integer constant, not {0}'),
  bitfieldWidth: e('KA3019', "width of bit-field '{0}' ({1} bits) exceeds the width of its type ({2} bits)"),
  kernelVariadic: e('KA3020', 'invalid prototype, variadic arguments are not allowed in OpenCL'),
  readWriteImageVersion: e(
    'KA3021',
    "access qualifier 'read_write' can not be used for '{0}' prior to OpenCL C version 2.0",
  ),
  accessOnPipeRequired: w('KA3022', "pipe '{0}' has no access qualifier; read_only assumed"),
  missingParamName: e('KA3023', 'kernel parameter {0} has no name'),
  enumTooLarge: e('KA3024', 'enumerator value is too large for any integer type'),
  divisionByZero: e('KA3026', 'division by zero in constant expression'),
  kernelCallsKernel: w('KA3027', "kernel '{0}' calls kernel '{1}'"),
  kernelAttrArgs: e('KA3028', "'{0}' attribute requires {1}"),
  unknownTypeForCast: e('KA3029', "invalid cast to '{0}'"),
  halfVariable: e('KA3030', "declaring variable of type '{0} half' is not allowed"),
  halfLiteral: e('KA3031', 'half precision constant requires cl_khr_fp16'),
  variableIncomplete: e('KA3032', "variable has incomplete type '{0}'"),
  arrayIncompleteElement: e('KA3033', "array has incomplete element type '{0}'"),
  emptyAggregateNeedsBraces: e('KA3034', 'initializer for aggregate with no elements requires explicit braces'),
  // Leniency as clang's (KA3200-KA3299, the front helper's block): what clang-16 accepts with a
  // warning, or folds in an initializer as its code generator does, is a warning here too.
  missingFieldSemicolon: w('KA3200', "expected ';' at end of declaration list"),
  duplicateSignOrWidth: w('KA3201', "duplicate '{0}' declaration specifier"),
  shiftCountNegative: w('KA3202', 'shift count is negative; it is taken modulo the width of the type, as clang does'),
  paramRedefinition: e('KA3204', "redefinition of parameter '{0}'"),
  sizeofVoid: e('KA3205', "invalid application of '{0}' to a void type"),
  flexibleArray: e('KA3206', "flexible array member '{0}' {1}"),
  implicitInt: e('KA3207', "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int"),
  shiftCountTooLarge: w('KA3203', 'shift count >= width of type; it is taken modulo the width, as clang does'),
  // tinytc IR
  irTypeSyntax: e('KA2100', 'invalid type: {0}'),
  irUndefined: e('KA3100', "use of undefined value '%{0}'"),
  irRedefined: e('KA3101', "value '%{0}' is defined twice"),
  irTypeMismatch: e('KA3102', 'type mismatch: {0}'),
  irOperandCount: e('KA3103', "'{0}' takes {1}"),
  irBoolParam: e(
    'KA3104',
    "parameter '%{0}' has type i1, which has no OpenCL kernel argument type (bool kernel arguments are not allowed)",
  ),
  irBadMode: e('KA3105', 'mode {0} is out of range for a memref of order {1}'),
  irResultCount: e('KA3106', "'{0}' defines {1} value(s), not {2}"),
  irYieldOutside: e('KA3107', "'yield' outside of an 'if' region"),
  irNameCollision: w('KA3108', "generated argument name '{0}' is taken; using '{1}'"),
  irDuplicateFunc: e('KA3109', "function '@{0}' is defined twice"),
  irCollectiveInSpmd: e(
    'KA3110',
    "'{0}' is a collective instruction and cannot appear inside 'foreach' (a spmd region)",
  ),
  irShapeMismatch: e('KA3111', 'shape mismatch in {0}: {1}'),
  irImmediateRange: e('KA3112', 'immediate {0} does not fit {1}'),
  irArithOnI1: e('KA3116', 'arith.{0} is not defined on i1 (and, or, xor and not are)'),
  irArithOnFloat: e('KA3117', 'arith.{0} is not defined on {1}'),
  irNegativeSubviewOffset: e('KA3118', 'a subview offset must not be negative, not {0}'),
  irNonPositiveSubviewSize: e('KA3119', 'a subview size must be positive, not {0}'),
  irNonPositiveExpandExtent: e('KA3120', 'an expand extent must be positive, not {0}'),
  irNonPositiveLoopStep: e('KA3121', 'a loop step must be positive, not {0}'),
  irNarrowAtomic: e(
    'KA3122',
    '.atomic updates of {0} are not supported: OpenCL C has no atomics narrower than 32 bits',
  ),
  irYieldNotLast: e('KA3123', "'yield' must be the last instruction of its region"),
  irIfRegionNeedsYield: e('KA3124', "this region of an 'if' with results must end with 'yield' of {0} value(s)"),
  irNumberOutOfRange: e('KA3125', "'{0}' is out of range"),
  irReservedName: e('KA3115', "'{0}' would be the OpenCL C name '{1}', which is reserved (a keyword, type or builtin)"),
  // tinytc names as tinytc's lexer reads them, and the OpenCL C names they become (KA2200-KA2299)
  irNameSpelling: e(
    'KA2200',
    "'{0}' is not a tinytc name: a name is digits alone ('%0', '@256') or a letter followed by letters, digits and '_'",
  ),
  irKernelNameClash: e(
    'KA2201',
    "'@{0}' would be the OpenCL C kernel '{1}', which '@{2}' is too (a name of digits alone gets an 'x' in front)",
  ),
  // Targets, one code per refusal: KA40xx LLVM IR (llvm, r600's module), KA41xx vulkan (clspv's
  // restrictions, in clspv's words where clspv has them), KA42xx amd-cl2 (CLRX), KA43xx r600.
  // LLVM IR
  llvmKernelCall: e('KA4001', "{0} '{1}' calls kernel '{2}': pass --kernel-stubs to split kernels into entry and body"),
  r600KernelCall: e('KA4002', "{0} '{1}' calls kernel '{2}': the r600 module has no kernel entry/body split"),
  // vulkan: option conflicts
  vkPodUboAndPush: e('KA4101', 'POD arguments can only be in either uniform buffers or push constants'),
  vkPodPushUnclustered: e('KA4102', 'POD arguments must be clustered to be passed as push constants'),
  vkPodPushModulePush: e(
    'KA4103',
    'POD arguments as push constants are not compatible with module scope push constants',
  ),
  vkPhysicalNeedsSpir64: e('KA4104', '-physical-storage-buffers can only be used with the spirv64 target'),
  vkPhysicalConstantUbo: e('KA4105', '-physical-storage-buffers and -constant-args-ubo are incompatible'),
  vkPodPushBesideModulePush: e(
    'KA4107',
    'kernarg does not model POD push constants beside the printf-buffer pointer or image-metadata push constants',
  ),
  // vulkan: what a kernel may not do or take
  vkKernelCallsKernel: e('KA4110', "kernel functions can't be called from other kernels ('{0}' calls '{1}')"),
  vkPrintf: e('KA4111', 'printf is not supported'),
  vkPrintfArgSize: e('KA4112', 'printf argument {0} has no conversion in its format string, so its size is unknown'),
  vkImageMetadataHelper: e(
    'KA4113',
    "kernarg does not follow image metadata through helper functions ('{0}' calls '{1}'; clspv inlines it into the kernels)",
  ),
  vkPipe: e('KA4116', 'pipes are not supported'),
  vkQueue: e('KA4117', "queue_t is not supported ('{0}')"),
  vkLongVector: e('KA4118', 'vectors with more than 4 elements are not supported'),
  vkStructWithPointers: e('KA4119', 'structures may not contain pointers'),
  // vulkan: where PODs and buffers go
  vkSsboPodsWithPointers: e('KA4120', 'SSBO PODs not supported with physical pointer arguments!'),
  vkMaxPushConstantSize: e('KA4121', 'max push constant size exceeded'),
  vkPushConstantArrays: e('KA4122', 'arrays are not supported in push constants currently'),
  vkNo8bitStorage: e('KA4123', '8-bit storage is not supported for {0}'),
  vkNo16bitStorage: e('KA4124', '16-bit storage is not supported for {0}'),
  vkUboArrayStride: e(
    'KA4125',
    'clspv restriction: to satisfy UBO ArrayStride restrictions, element size must be a multiple of array alignment',
  ),
  vkUboArrayAlign: e(
    'KA4126',
    'in an UBO, arrays must be aligned to their element alignment, rounded up to a multiple of 16',
  ),
  vkUboStructAlign: e(
    'KA4127',
    'in an UBO, structs must be aligned to their largest element alignment, rounded up to a multiple of 16 bytes',
  ),
  // vulkan, today's clspv (KA46xx): what clspv's feature set refuses
  vkProgramScopeGlobal: e(
    'KA4600',
    "program scope variable must reside in constant address space ('{0}': clspv leaves __opencl_c_program_scope_global_variables off)",
  ),
  // amd-cl2
  clrxNoPointerType: e('KA4201', "the AMD OpenCL 2.0 ABI (CLRX) has no pointer type for '{0}'"),
  clrxNoImageType: e('KA4202', "'{0}' is not an image type of the AMD OpenCL 2.0 ABI (CLRX)"),
  clrxNoArgumentType: e('KA4203', "the AMD OpenCL 2.0 ABI (CLRX) has no argument type for '{0}'"),
  // r600
  r600ReadWriteImage: e(
    'KA4301',
    "the R600 image pass handles read_only and write_only images only, not read_write '{0}'",
  ),
  // cuda (KA44xx): what clang's NVPTX backend and CUDA's launch refuse
  cudaHalfByValue: e(
    'KA4401',
    "'{0}' holds half, and NVPTX has no cl_khr_fp16: clang refuses half by value in kernel parameter '{1}'",
  ),
  cudaHalfVector: e(
    'KA4402',
    "'{0}' points to half vectors, which clang does not declare for NVPTX (no cl_khr_fp16; parameter '{1}')",
  ),
  cudaParamLimit: e('KA4403', "kernel '{0}' has {1} bytes of parameters: more than CUDA's {2}-byte limit"),
  cudaParamLimitClassic: w(
    'KA4404',
    "kernel '{0}' has {1} bytes of parameters: more than {2} bytes needs CUDA 12.1 or later and a Volta or later GPU",
  ),
  cudaPoclArgument: e('KA4405', "pocl's CUDA driver does not pass {0} arguments ('{1}'): choose --local-memory nvidia"),
  cudaNeedsFeature: e('KA4406', "use of type '{0}' requires {1} support, which clang's NVPTX target does not declare"),
  cudaHalfVariable: e('KA4407', "declaring variable of type '{0}' is not allowed: NVPTX has no cl_khr_fp16"),
  cudaNoSubgroups: e(
    'KA4408',
    "use of undeclared identifier '{0}': clang's NVPTX target declares no sub-group builtins (no cl_khr_subgroups)",
  ),
  // Input budgets (KA4409-KA4419, the fuzz block): the limits of the reference compilers that stop inputs whose
  // work grows with their size (issue 32: no input over 1 s of one core per 100 KB), as those compilers word them
  tooManyParameters: e('KA4409', 'too many function parameters; subsequent parameters will be ignored'),
  irTooManyParameters: e(
    'KA4410',
    "function '@{0}' has {1} OpenCL C parameters (memref shapes and strides included), past clang's limit of {2}",
  ),
  spirvTooManyParameters: e(
    'KA4411',
    "kernel '{0}' has {1} parameters: a SPIR-V function takes at most {2} (OpTypeFunction; spirv-val refuses more)",
  ),
  // zebin (KA4500-KA4599): what IGC's zebin payload has no place for
  zebinNoArgument: e('KA4501', "IGC's zebin payload has no argument kind for '{0}' (parameter '{1}')"),
  zebinNoFp64: e('KA4502', "parameter '{0}' uses double, which ocloc refuses for -device {1} (no cl_khr_fp64)"),
  zebinArgumentsTooLarge: e('KA4503', "kernel '{0}' takes {1} bytes of arguments, more than IGC's limit of {2}"),
  zebinNoFp64Field: e('KA4504', "field '{0}' uses double, which ocloc refuses for -device {1} (no cl_khr_fp64)"),
  // Compiled-kernel readers, PTX text and SPIR-V (KA7100-KA7199): what a PTX or SPIR-V file holds that kernarg cannot
  // read
  ptxExpected: e('KA7101', 'expected {0} in a PTX .entry, found {1}'),
  ptxParamType: e('KA7102', "PTX parameter '{0}' has type .{1}, which a kernel parameter cannot have"),
  ptxAddressSize: e('KA7103', '.address_size must be 32 or 64, not {0}'),
  ptxNoEntry: e('KA7104', 'this is not PTX: no .version directive and no .entry'),
  ptxAlign: e('KA7105', "PTX parameter '{0}' has alignment {1}: an alignment is a power of two"),
  ptxArraySize: e('KA7106', "PTX parameter '{0}' is a .b8 array of {1} bytes; expected a positive byte count"),
  ptxUnterminatedComment: e('KA7107', 'unterminated /* comment in PTX'),
  spirvMalformed: e('KA7120', 'malformed SPIR-V at byte {0}: {1}'),
  spirvNoEntryPoint: e('KA7121', 'this SPIR-V has no GLCompute or Kernel entry point: nothing to read'),
  spirvUnsupported: e('KA7122', "entry point '{0}': {1}"),
  // tinytc v0.4 (KA2400-KA2499, the tinytc04 helper's block): its syntax ($ definitions, !calc,
  // instruction keywords) and its checker's rules (SPMD and collective regions, casts, yields).
  ir04UndefinedDef: e('KA2400', "use of undefined definition '${0}'"),
  ir04DefKind: e('KA2401', "'${0}' does not hold {1}"),
  ir04CalcError: e('KA2402', "'!calc': {0}"),
  ir04UnknownInstruction: e('KA2403', "unknown instruction '{0}'"),
  ir04SpmdOutside: e(
    'KA2410',
    "'{0}' is an SPMD instruction and must stand inside 'parallel', 'foreach' or 'foreach_tile'",
  ),
  ir04CollectiveInSpmd: e(
    'KA2411',
    "'{0}' is a collective instruction and cannot appear inside an SPMD region ('parallel', 'foreach' or 'foreach_tile')",
  ),
  ir04ForbiddenCast: e('KA2412', 'cast from {0} to {1} is forbidden (a complex value casts only to a complex type)'),
  ir04TypeUnsupported: e('KA2413', "'{0}' is not defined on {1}"),
  ir04YieldOutside: e('KA2414', "'yield' outside of an 'if' or 'for' region"),
  ir04ParamType: e('KA2415', "parameter '%{0}' has type {1}, which no kernel argument can have"),
  ir04ResultType: e('KA2416', "'{0}' gives {1}, but its result is annotated {2}"),
  ir04NotLowered: e(
    'KA2420',
    "'{0}' is not lowered to OpenCL C or SPIR-V by kernarg yet (its interface is: use --format table, json or signatures)",
  ),
  // tinytc v0.4's cooperative matrices in the code generators (KA2450–KA2469, the coopmatrix block)
  ir04CoopmatrixNeedsSubgroupSize: e(
    'KA2450',
    'a coopmatrix is laid out over the subgroup: the function must state its size (attributes{subgroup_size=16})',
  ),
  ir04CoopmatrixNotPowerOfTwo: e(
    'KA2451',
    'tinytc lays out coopmatrices whose rows and subgroup size are powers of two, not {0} rows over {1} lanes',
  ),
  ir04CoopmatrixIndex: e(
    'KA2452',
    'component {0} is outside the work-item vector of this coopmatrix ({1} components at this subgroup size)',
  ),
  // tinytc v0.4's number types in the code generators (KA2430–KA2449)
  ir04VulkanWideMath: e(
    'KA2430',
    "'{0}' of {1} has no Vulkan SPIR-V instruction (GLSL.std.450 takes 16- and 32-bit floats only): --target opencl generates it",
  ),
  // tinytc v0.4's foreach_tile, subgroup operations and barriers in parallel regions (KA2470–KA2479, KA3140–KA3149:
  // the lang helper's block)
  ir04TileExtent: e('KA2470', 'a foreach_tile tile extent must be positive, not {0}'),
  ir04TileSubgroup: e(
    'KA2471',
    'the first foreach_tile tile extent ({0}) must be a multiple of the subgroup size ({1}), as tinytc requires',
  ),
  ir04NoSubgroups: e(
    'KA3140',
    "'{0}' needs subgroups, which the OpenCL device {1} does not have (no cl_khr_subgroups): run it on Vulkan",
  ),
  // Options
  unknownTarget: e('KA5002', "unknown target '{0}' (choose from {1})"),
  formatUnavailable: e('KA5003', "format '{0}' is not available for target '{1}' (choose from {2})"),
  unknownClStd: e('KA5004', "unknown OpenCL C version '{0}' (choose from {1})"),
  unknownChoice: e('KA5005', "unknown {0} '{1}' (choose from {2})"),
  codeObject6NeedsLlvm18: e('KA5006', 'code object 6 needs LLVM 18 or later (--llvm 19)'),
  formatNeedsTinytc: e('KA5007', '--format {0} needs tinytc input (.ir)'),
  // Options, renamed spellings (KA5008-KA5019, the options helper's block)
  deprecatedChoice: w('KA5008', '--{0} {1} is an old spelling: it is --{0} {2} now'),
  // tinytc's OpenCL SPIR-V (KA5050-KA5059, the clspirv block)
  openclSpirvNeeds64: e(
    'KA5050',
    "--format {0} of --target opencl is tinytc's OpenCL SPIR-V for 64-bit devices (Physical64 addressing): it has no module for --arch spir",
  ),
  // The command line's files (KA6000-KA6099): inputs and outputs, `run --args` files, and what `run` met
  cannotReadFile: e('KA6001', 'cannot read the {0}: {1}'),
  cannotWriteOutput: e('KA6002', 'cannot write the output: {0}'),
  samplerMapLine: e('KA6003', '{0}'),
  argsNotJson: e('KA6010', 'not valid JSON: {0}'),
  argsMistake: e('KA6011', "kernel '{0}', argument '{1}': {2}"),
  argsTooMany: {
    code: 'KA6012',
    severity: 'note',
    text: 'too many mistakes in the arguments; stopping now (the first {0} are shown)',
  },
  noSuchKernel: e('KA6013', "no kernel named '{0}' in this file (it has {1}){2}"),
  runFailed: e('KA6014', '{0}'),
  devicesUnlisted: e('KA6015', 'cannot list the {0} devices: {1}'),
  devicesPartly: w('KA6016', 'cannot list the {0} devices: {1}'),
  // Compiled kernels, the ELF readers (KA7000-KA7099): ELF files, msgpack, AMDGPU code object metadata, zebin's
  // .ze_info
  elfTruncated: e('KA7001', 'at byte {0}: the file ends inside {1} ({2} bytes needed, {3} there)'),
  elfNotElf: e('KA7002', 'at byte 0: not an ELF file (no \\x7fELF magic)'),
  elfClass: e('KA7003', 'at byte 4: ELF class {0} is not read (only 1, ELF32, and 2, ELF64)'),
  elfEndian: e('KA7004', 'at byte 5: big-endian or unknown data encoding {0} is not read (only 1, little-endian)'),
  elfSectionHeaders: e('KA7005', 'at byte {0}: {1} section headers of {2} bytes each do not fit the file'),
  elfSectionName: e('KA7006', 'at byte {0}: section {1} names byte {2} of its string table, which has {3}'),
  elfSectionData: e('KA7007', "at byte {0}: section '{1}' claims {2} bytes at byte {3}, past the file's {4}"),
  elfNote: e('KA7008', "at byte {0}: a note of section '{1}' claims {2} bytes where {3} are left"),
  elfHeaderSize: e('KA7009', 'at byte {0}: {1} is {2}, not {3}'),
  msgpackTruncated: e('KA7010', 'at byte {0}: the msgpack data ends inside {1}'),
  msgpackReserved: e('KA7011', 'at byte {0}: 0x{1} is not a msgpack type byte kernarg reads'),
  msgpackTooDeep: e('KA7012', 'at byte {0}: msgpack data nests deeper than {1} levels'),
  msgpackTooMany: e('KA7013', 'at byte {0}: msgpack data holds more than {1} values'),
  msgpackBigInteger: e('KA7014', 'at byte {0}: the msgpack integer {1} is past 2^53'),
  msgpackTrailing: e('KA7015', 'at byte {0}: {1} bytes follow the msgpack value'),
  amdgpuNoMetadata: e(
    'KA7020',
    'at byte {0}: this AMDGPU code object has no NT_AMDGPU_METADATA note (code object v2 and v3 are not read)',
  ),
  amdgpuCodeObject: e(
    'KA7021',
    'at byte 8: ELF ABI version {0} is not an AMDHSA code object 4, 5 or 6 (ABI versions 2, 3, 4)',
  ),
  amdgpuMetadata: e('KA7022', 'at byte {0}: AMDGPU metadata {1}: {2}'),
  amdgpuMcpu: e(
    'KA7023',
    'at byte 48: the code object is for {0}; kernarg models amdhsa plans for gfx9 and later (gfx7 and gfx8 code objects add hidden_private_base and hidden_shared_base)',
  ),
  amdgpuPlan: e('KA7024', 'at byte {0}: the metadata does not make a valid amdhsa plan: {1}'),
  zeInfoSyntax: e('KA7031', 'at byte {0}: .ze_info line {1}: {2}'),
  zeInfoField: e('KA7032', "at byte {0}: .ze_info kernel '{1}': {2}"),
  binaryUnknown: e('KA7040', 'at byte 0: not a kind of compiled kernel kernarg reads ({0})'),
  // CUDA cubins and the CUDA driver host (KA7400-KA7499, the cudahost block): a cubin's .nv.info
  // records (EIATTR_KPARAM_INFO), and what `run --api cuda` needs that the machine lacks
  cubinRecord: e('KA7401', "at byte {0}: section '{1}': {2}"),
  cubinNoKernel: e('KA7402', 'at byte {0}: this cubin has no .nv.info.<kernel> section: no kernel parameters to read'),
  cubinParams: e('KA7403', "at byte {0}: kernel '{1}': {2}"),
  // A reader's finding like the others of the block (it names a byte of the cubin), once KA4420 in the cuda block.
  cubinUnknownSm: e(
    'KA7404',
    'at byte {0}: the cubin is for sm_{1}, whose parameter-buffer base kernarg does not know (it knows {2})',
  ),
  cudaNoPtxCompiler: e(
    'KA7410',
    "--api cuda compiles OpenCL C with clang's NVPTX backend, and {0}: give the PTX (.ptx) or a cubin instead",
  ),
  cudaPtxCompile: e('KA7411', "clang's NVPTX backend refused the source ({0}): {1}"),
  // Compiled kernels, checked against their source (KA7200-KA7299): the processors an amdhsa plan names (`--mcpu`)
  amdMcpuNeedsLlvm: e('KA7201', '--mcpu {0} needs --llvm {1} or later (clang-{2} does not know it)'),
  amdMcpuNeedsCodeObject6: e(
    'KA7202',
    '--mcpu {0} is a generic processor: only code object 6 has it (--code-object 6)',
  ),
  // OpenCL C declarations, the front3 helper's block (KA7610-KA7619)
  kernelOnlyAttribute: e('KA7610', "attribute '{0}' can only be applied to an OpenCL kernel function"),
} as const satisfies Record<string, Message>;
