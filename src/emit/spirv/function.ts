import type { SpirvBuilder } from './builder.js';
import { MemoryAccess, Op, StorageClass } from './spec.js';

type Inst = number[];

/**
 * One function's body with structured control flow: every construct opens with its merge
 * instruction and every block ends in a branch, as Vulkan requires. Mutable values live in
 * Function-storage variables, declared at the top of the entry block, so no OpPhi is needed.
 */
export class FunctionBuilder {
  readonly id: number;
  private readonly params: Inst[] = [];
  private readonly vars: Inst[] = [];
  private readonly body: Inst[] = [];
  private readonly entry: number;

  /** `fnType` may be left 0 and set with `type` once the parameters' types are known. */
  constructor(
    private readonly b: SpirvBuilder,
    private readonly returnType: number,
    private fnType: number,
  ) {
    this.id = b.id();
    this.entry = b.id();
  }

  /** Sets the function type (before finish). */
  type(fnType: number): void {
    this.fnType = fnType;
  }

  /** The next OpFunctionParameter, of the type (the function type must list the same types). */
  param(type: number): number {
    const id = this.b.id();
    this.params.push([Op.FunctionParameter, type, id]);
    return id;
  }

  /** An instruction with a result: returns its id. */
  op(opcode: number, resultType: number, ...operands: number[]): number {
    const id = this.b.id();
    this.body.push([opcode, resultType, id, ...operands]);
    return id;
  }

  /** An instruction without a result. */
  emit(opcode: number, ...operands: number[]): void {
    this.body.push([opcode, ...operands]);
  }

  /** A Function-storage variable of the type; returns its pointer id. */
  local(type: number): number {
    const id = this.b.id();
    this.vars.push([Op.Variable, this.b.typePointer('Function', type), id, StorageClass.Function]);
    return id;
  }

  load(type: number, ptr: number, alignment?: number): number {
    return alignment === undefined
      ? this.op(Op.Load, type, ptr)
      : this.op(Op.Load, type, ptr, MemoryAccess.Aligned, alignment);
  }

  store(ptr: number, value: number, alignment?: number): void {
    if (alignment === undefined) this.emit(Op.Store, ptr, value);
    else this.emit(Op.Store, ptr, value, MemoryAccess.Aligned, alignment);
  }

  private label(id: number): void {
    this.body.push([Op.Label, id]);
  }

  /** if (cond) then() [else otherwise()]. */
  ifThen(cond: number, then: () => void, otherwise?: () => void): void {
    const t = this.b.id();
    const e = otherwise ? this.b.id() : 0;
    const merge = this.b.id();
    this.emit(Op.SelectionMerge, merge, 0);
    this.emit(Op.BranchConditional, cond, t, otherwise ? e : merge);
    this.label(t);
    then();
    this.emit(Op.Branch, merge);
    if (otherwise) {
      this.label(e);
      otherwise();
      this.emit(Op.Branch, merge);
    }
    this.label(merge);
  }

  /**
   * while (cond()) { body(); next(); } — cond runs in its own block after the loop header; `control`: OpLoopMerge's
   * Loop Control bits (1: Unroll).
   */
  loop(cond: () => number, body: () => void, next: () => void, control = 0): void {
    const header = this.b.id();
    const check = this.b.id();
    const bodyLabel = this.b.id();
    const cont = this.b.id();
    const merge = this.b.id();
    this.emit(Op.Branch, header);
    this.label(header);
    this.emit(Op.LoopMerge, merge, cont, control);
    this.emit(Op.Branch, check);
    this.label(check);
    const c = cond();
    this.emit(Op.BranchConditional, c, bodyLabel, merge);
    this.label(bodyLabel);
    body();
    this.emit(Op.Branch, cont);
    this.label(cont);
    next();
    this.emit(Op.Branch, header);
    this.label(merge);
  }

  /** The finished function: OpFunction, the entry block with its variables, the body, OpReturn. */
  finish(): Inst[] {
    return [
      [Op.Function, this.returnType, this.id, 0, this.fnType],
      ...this.params,
      [Op.Label, this.entry],
      ...this.vars,
      ...this.body,
      [Op.Return],
      [Op.FunctionEnd],
    ];
  }
}
