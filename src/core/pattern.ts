import { RE2JS } from 're2js';
import { InputError } from './errors';

/**
 * Every regular expression that comes from a model, a policy or a user runs here: RE2 semantics (re2js, a pure
 * JavaScript port of RE2), which match in time linear in the line, whatever the pattern. `^(a|a)*$` and `^(a+)+$`
 * cannot backtrack because there is no backtracking. RE2 has no back-references or look-around; a pattern that
 * uses them is refused as invalid, by name.
 */
export interface LinePattern {
  /** The pattern as written. */
  readonly source: string;
  readonly ignoreCase: boolean;
  test(line: string): boolean;
}

/** Compile a user's or a model's pattern; a bad one is an InputError naming it. */
export function linearPattern(pattern: string, ignoreCase = false): LinePattern {
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (e) {
    throw new InputError(`invalid regular expression /${pattern}/: ${(e as Error).message.replace(/^error parsing regexp: /, '')}`);
  }
  return { source: pattern, ignoreCase, test: (line) => re.matcher(line).find() };
}

/** A pattern that matches the text literally. */
export function literalPattern(text: string, ignoreCase = false): LinePattern {
  return linearPattern(RE2JS.quote(text), ignoreCase);
}
