// `#define`: a macro's definition read from its directive line, checked as clang checks it, and
// entered into the macro table (a different redefinition is reported, as clang warns, and wins).
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { isPunct, type Macro } from './macro-expand.js';
import { type Token, tokenSpan } from './token.js';

/** Obeys `#define` with the tokens after the directive name (`at`: the name, for a missing macro name). */
export function defineMacro(rest: readonly Token[], at: Token, macros: Map<string, Macro>, diags: DiagnosticBag): void {
  const id = rest[0];
  if (!id) {
    diags.report(Messages.macroNameMissing, tokenSpan(at));
    return;
  }
  if (id.kind !== 'ident') {
    diags.report(Messages.macroNameNotIdentifier, tokenSpan(id));
    return;
  }
  if (id.text === 'defined') {
    diags.report(Messages.macroNameNotIdentifier, tokenSpan(id));
    return;
  }
  let params: string[] | null = null;
  let variadic = false;
  let k = 1;
  // A function-like macro has its '(' right after the name, with no space between.
  if (isPunct(rest[1], '(') && !rest[1].space) {
    params = [];
    k = 2;
    for (;;) {
      const t = rest[k];
      if (!t) {
        diags.report(Messages.macroParamList, tokenSpan(id), ["missing ')'"]);
        return;
      }
      if (isPunct(t, ')') && params.length === 0) {
        k++;
        break;
      }
      if (isPunct(t, '...')) {
        params.push('__VA_ARGS__');
        variadic = true;
        k++;
      } else if (t.kind === 'ident') {
        if (params.includes(t.text)) {
          diags.report(Messages.macroParamList, tokenSpan(t), [`duplicate parameter '${t.text}'`]);
          return;
        }
        params.push(t.text);
        k++;
        if (isPunct(rest[k], '...')) {
          variadic = true;
          k++;
        }
      } else {
        diags.report(Messages.macroParamList, tokenSpan(t), [`unexpected '${t.text}'`]);
        return;
      }
      if (isPunct(rest[k], ')')) {
        k++;
        break;
      }
      if (variadic || !isPunct(rest[k], ',')) {
        diags.report(Messages.macroParamList, tokenSpan(rest[k] ?? t), ["expected ',' or ')'"]);
        return;
      }
      k++;
    }
  }
  const body = rest.slice(k);
  if (body.length && (isPunct(body[0], '##') || isPunct(body[body.length - 1], '##'))) {
    diags.report(Messages.hashHashAtEdge, tokenSpan(isPunct(body[0], '##') ? body[0] : body[body.length - 1]));
    return;
  }
  if (params) {
    for (let b = 0; b < body.length; b++) {
      if (isPunct(body[b], '#') && !(body[b + 1]?.kind === 'ident' && params.includes(body[b + 1].text))) {
        diags.report(Messages.hashNotFollowedByParam, tokenSpan(body[b]));
        return;
      }
    }
  }
  const old = macros.get(id.text);
  if (old && old.span && !sameDefinition(old, params, body)) {
    diags.report(
      Messages.macroRedefined,
      tokenSpan(id),
      [id.text],
      [{ message: 'previous definition is here', span: old.span }],
    );
  }
  macros.set(id.text, { name: id.text, params, variadic, body, span: id.span });
}

function sameDefinition(old: Macro, params: readonly string[] | null, body: readonly Token[]): boolean {
  if ((old.params === null) !== (params === null)) return false;
  if (old.params && params && old.params.join(',') !== params.join(',')) return false;
  if (old.body.length !== body.length) return false;
  return old.body.every((t, k) => t.text === body[k].text && (k === 0 || t.space === body[k].space));
}
