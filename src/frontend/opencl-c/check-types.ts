/**
 * The semantic checks of the types a declaration builds: address spaces, struct and union
 * fields, bit-fields, array and record sizes, enums and their enumerators, half literals. The parser builds each type and asks these checks
 * as it goes (the values they return are the ones the type is built with).
 */
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import type { DataLayout } from '../../layout/data-layout.js';
import { layoutOf, recordLayout } from '../../layout/layout.js';
import { typeToString } from '../../types/print.js';
import {
  type AddressSpace,
  type EnumDecl,
  type QualType,
  type RecordDecl,
  type ScalarName,
  canonical,
  isInteger,
  q,
} from '../../types/types.js';

/** Sizes are computed in bits as doubles, exact below 2^53 bits: objects past 2^50 bytes are refused rather than rounded. */
const MAX_OBJECT_BYTES = 2 ** 50;

export class TypeChecker {
  constructor(
    protected readonly diags: DiagnosticBag,
    protected readonly layout: DataLayout,
    /** The live set of extensions enabled by pragmas so far. */
    protected readonly enabled: ReadonlySet<string>,
  ) {}

  /** An array suffix's length from its constant `value` (undefined when not constant); null when negative. */
  arrayLength(value: bigint | undefined, at: Span): number | null {
    if (value === undefined) return null;
    if (value < 0n) {
      this.diags.report(Messages.badArraySize, at, [value.toString()]);
      return null;
    }
    return Number(value);
  }

  /** An array's elements need a size (clang: "array has incomplete element type"): `float a[2][]` is refused at `at`. */
  arrayElement(element: QualType, at: Span): boolean {
    const c = canonical(element).type;
    if (c.kind !== 'array' || c.length !== null) return true;
    this.diags.report(Messages.arrayIncompleteElement, at, [typeToString(element)]);
    return false;
  }

  /** clang's limit: an object's size in bytes needs fewer bits than a pointer less 3 (2^61 bytes on 64-bit targets). */
  arrayBytes(element: QualType, count: bigint, at: Span): void {
    const c = canonical(element).type;
    if (c.kind === 'function' || (c.kind === 'record' && !c.decl.fields) || (c.kind === 'scalar' && c.name === 'void'))
      return;
    // An element that is itself past every limit (nested arrays whose sizes multiply past 2^1024
    // are Infinity as a double: issue 32's fuzzer crash) makes this array too large as well.
    const elementSize = layoutOf(c, this.layout).size;
    if (!Number.isSafeInteger(elementSize)) {
      this.diags.report(Messages.arrayTooLarge, at, [count.toString()]);
      return;
    }
    const size = BigInt(elementSize);
    const limit = 1n << BigInt(this.layout.sizeT * 8 - 3);
    // clang's own limit first; below it, sizes past 2^50 bytes would lose exactness as numbers.
    if (count * size >= limit) this.diags.report(Messages.arrayTooLarge, at, [count.toString()]);
    else if (count * size > BigInt(MAX_OBJECT_BYTES))
      this.diags.report(Messages.objectTooLarge, at, [
        typeToString(q({ kind: 'array', element, length: Number(count) })),
      ]);
  }

  /** A type may name one address space, the one `previous` held if any; `at` is asked for only to report. */
  addressSpace(previous: AddressSpace | undefined, next: AddressSpace, at: () => Span): void {
    if (previous && previous !== next) this.diags.report(Messages.multipleAddressSpaces, at());
  }

  /** A `half` literal needs cl_khr_fp16 enabled. */
  halfLiteral(at: Span): void {
    if (!this.enabled.has('cl_khr_fp16')) this.diags.report(Messages.halfLiteral, at);
  }

  /** A complete struct or union, named at `at`. */
  record(decl: RecordDecl, at: Span): void {
    if (recordLayout(decl, this.layout).size > MAX_OBJECT_BYTES)
      this.diags.report(Messages.objectTooLarge, at, [typeToString({ type: { kind: 'record', decl } })]);
  }

  /**
   * A bit-field of `type` whose width expression (at `widthSpan`) evaluated to `value`; the width
   * the field gets, brought into range when it is out of it.
   */
  bitField(
    colon: Span,
    name: string | null,
    nameSpan: Span,
    type: QualType,
    value: bigint | undefined,
    widthSpan: Span,
  ): number {
    let bitWidth = value === undefined ? 1 : Number(value);
    if (!this.enabled.has('__cl_clang_bitfields')) this.diags.report(Messages.bitfieldsDisabled, colon);
    const c = canonical(type).type;
    const width = c.kind === 'scalar' || c.kind === 'enum' ? 8 * layoutOf(c, this.layout).size : 0;
    if (!isInteger(c)) {
      this.diags.report(Messages.badAttributeArgs, nameSpan, [
        'bit-field',
        `has non-integral type '${typeToString(type)}'`,
      ]);
    } else if (bitWidth < 0 || bitWidth > width) {
      this.diags.report(Messages.bitfieldWidth, widthSpan, [name ?? '<anonymous>', bitWidth, width]);
      bitWidth = Math.min(Math.max(bitWidth, 0), width);
    }
    if (bitWidth === 0 && name)
      this.diags.report(Messages.badAttributeArgs, widthSpan, ['bit-field', `'${name}' has zero width`]);
    return bitWidth;
  }

  /** What a field's type may not be: opaque, incomplete, void or a function; false when it is one of them. */
  fieldType(type: QualType, nameSpan: Span): boolean {
    let c = canonical(type).type;
    while (c.kind === 'array') c = canonical(c.element).type;
    if (c.kind === 'image' || c.kind === 'opaque' || c.kind === 'pipe') {
      this.diags.report(Messages.invalidFieldType, nameSpan, [c.kind === 'pipe' ? 'pipe' : c.name]);
    } else if (c.kind === 'record' && c.decl.fields === null) {
      this.diags.report(Messages.incompleteType, nameSpan, [typeToString(type)]);
    } else if (c.kind === 'scalar' && c.name === 'void') {
      this.diags.report(Messages.incompleteType, nameSpan, ['void']);
    } else if (c.kind === 'function') {
      this.diags.report(Messages.badAttributeArgs, nameSpan, ['field', 'cannot have function type']);
    } else return true;
    return false;
  }

  /** The underlying type clang picks for a complete enum without a fixed one: the first its values fit. */
  enumUnderlying(decl: EnumDecl): ScalarName {
    const vals = decl.enumerators.map((e) => e.value);
    const min = vals.reduce((a, b) => (b < a ? b : a), 0n);
    const max = vals.reduce((a, b) => (b > a ? b : a), 0n);
    const fits = (lo: bigint, hi: bigint) => min >= lo && max <= hi;
    const order: [ScalarName, bigint, bigint][] = decl.packed
      ? [
          ['uchar', 0n, 255n],
          ['char', -128n, 127n],
          ['ushort', 0n, 65535n],
          ['short', -32768n, 32767n],
        ]
      : [];
    order.push(
      ['uint', 0n, 0xffffffffn],
      ['int', -(1n << 31n), (1n << 31n) - 1n],
      ['ulong', 0n, (1n << 64n) - 1n],
      ['long', -(1n << 63n), (1n << 63n) - 1n],
    );
    for (const [name, lo, hi] of order) if (fits(lo, hi)) return name;
    this.diags.report(Messages.enumTooLarge, decl.span);
    return 'long';
  }

  /** An enumerator may not reuse the name of another ordinary identifier in scope (`previous`). */
  enumerator(name: string, at: Span, previous: { readonly span: Span } | undefined): void {
    if (previous !== undefined) this.diags.report(Messages.redefinition, at, [name]);
  }
}
