// Why a target refuses an option combination: a catalogue message with its arguments (one code per refusal).
import { type Message, Messages } from '../diagnostics/messages.js';

/** An option the target refuses: a catalogue message and its arguments. */
export interface OptionProblem {
  readonly message: Message;
  readonly args: readonly (string | number)[];
}

export function choiceProblem(name: string, v: unknown, choices: readonly unknown[]): OptionProblem | undefined {
  return v === undefined || choices.includes(v)
    ? undefined
    : { message: Messages.unknownChoice, args: [name, String(v), choices.join(', ')] };
}

/** A problem's words, as the command line says them (a usage error) and lower() reports them (a diagnostic). */
export function problemText(p: OptionProblem): string {
  return p.message.text.replace(/\{(\d+)\}/g, (_, i: string) => String(p.args[Number(i)]));
}
