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
  unterminatedChar: e('KA1002', 'missing terminating \' character'),
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
  constantTooLarge: e('KA2032', "a program-scope variable of type '{0}' starts with {1} bytes, past kernarg's limit of {2} bytes for the initial bytes it holds"),
  tooDeep: e('KA2023', 'nesting level exceeded the maximum of {0} (declarators, initializers and expressions)'),
  arrayTooLarge: e('KA2041', 'array is too large ({0} elements)'),
  // Semantic checks
  redefinition: e('KA3001', "redefinition of '{0}'"),
  conflictingTypes: e('KA3002', "conflicting types for '{0}'"),
  kernelReturn: e('KA3003', 'kernel must have void return type'),
  kernelParamType: e('KA3004', "'{0}' cannot be used as the type of a kernel parameter"),
  kernelPointerSpace: e('KA3005', "pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space"),
  kernelPointerToPointer: e('KA3006', 'kernel parameter cannot be declared as a pointer to a pointer'),
  recordWithPointers: e('KA3007', '{0} kernel parameters may not contain pointers'),
  halfByValue: e('KA3008', "declaring function parameter of type '__private half' is not allowed; did you forget * ?"),
  bitfieldsDisabled: e('KA3009', 'bit-fields are not supported in OpenCL'),
  invalidFieldType: e('KA3010', "the '{0}' type cannot be used to declare a structure or union field"),
  pointerToOpaque: e('KA3011', "pointer to type '{0}' is invalid in OpenCL"),
  accessQualifierOnNonImage: e('KA3012', "access qualifier can only be used for pipe and image type"),
  multipleAddressSpaces: e('KA3013', 'multiple address spaces specified for type'),
  programScopeSpace: e('KA3014', "program scope variable must reside in {0} address space"),
  constantNeedsInit: e('KA3015', "variable in constant address space must be initialized"),
  initNotConstant: e('KA3016', 'initializer element is not a compile-time constant: {0}'),
  excessInitializers: w('KA3017', 'excess elements in {0} initializer'),
  samplerInit: e('KA3018', 'sampler_t initialization requires a 32-bit integer constant, not {0}'),
  bitfieldWidth: e('KA3019', "width of bit-field '{0}' ({1} bits) exceeds the width of its type ({2} bits)"),
  kernelVariadic: e('KA3020', 'invalid prototype, variadic arguments are not allowed in OpenCL'),
  readWriteImageVersion: e('KA3021', "access qualifier 'read_write' can not be used for '{0}' prior to OpenCL C version 2.0"),
  accessOnPipeRequired: w('KA3022', "pipe '{0}' has no access qualifier; read_only assumed"),
  missingParamName: e('KA3023', 'kernel parameter {0} has no name'),
  enumTooLarge: e('KA3024', "enumerator value is too large for any integer type"),
  negativeShift: e('KA3025', 'shift count is negative or too large'),
  divisionByZero: e('KA3026', 'division by zero in constant expression'),
  kernelCallsKernel: w('KA3027', "kernel '{0}' calls kernel '{1}'"),
  kernelAttrArgs: e('KA3028', "'{0}' attribute requires {1}"),
  unknownTypeForCast: e('KA3029', "invalid cast to '{0}'"),
  halfVariable: e('KA3030', "declaring variable of type '{0} half' is not allowed"),
  halfLiteral: e('KA3031', 'half precision constant requires cl_khr_fp16'),
  // tinytc IR
  irTypeSyntax: e('KA2100', 'invalid type: {0}'),
  irUndefined: e('KA3100', "use of undefined value '%{0}'"),
  irRedefined: e('KA3101', "value '%{0}' is defined twice"),
  irTypeMismatch: e('KA3102', 'type mismatch: {0}'),
  irOperandCount: e('KA3103', "'{0}' takes {1}"),
  irBoolParam: e('KA3104', "parameter '%{0}' has type i1, which has no OpenCL kernel argument type (bool kernel arguments are not allowed)"),
  irBadMode: e('KA3105', 'mode {0} is out of range for a memref of order {1}'),
  irResultCount: e('KA3106', "'{0}' defines {1} value(s), not {2}"),
  irYieldOutside: e('KA3107', "'yield' outside of an 'if' region"),
  irNameCollision: w('KA3108', "generated argument name '{0}' is taken; using '{1}'"),
  irDuplicateFunc: e('KA3109', "function '@{0}' is defined twice"),
  irCollectiveInSpmd: e('KA3110', "'{0}' is a collective instruction and cannot appear inside 'foreach' (a spmd region)"),
  irShapeMismatch: e('KA3111', 'shape mismatch in {0}: {1}'),
  irImmediateRange: e('KA3112', 'immediate {0} does not fit {1}'),
  irBadOperation: e('KA3113', '{0}'),
  irYieldPlacement: e('KA3114', '{0}'),
  irReservedName: e('KA3115', "'{0}' would be the OpenCL C name '{1}', which is reserved (a keyword, type or builtin)"),
  // Targets
  unsupportedForTarget: e('KA4001', '{0}'),
  // Options
  badOption: e('KA5001', '{0}'),
} as const satisfies Record<string, Message>;

