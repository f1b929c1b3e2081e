/** One mistake in a `_redirects` or `_headers` file, by line (1-based). */
export interface RuleProblem {
  file: string;
  line: number;
  message: string;
}

/** Problems listed in a refused deployment; past this, only their count is added. */
const MAX_LISTED = 50;

/** The problems found in one rules file, listed up to a limit and counted in full. */
export class ProblemList {
  readonly items: RuleProblem[] = [];
  count = 0;

  constructor(private readonly file: string) {}

  add(line: number, message: string): void {
    this.count += 1;
    if (this.items.length < MAX_LISTED) this.items.push({ file: this.file, line, message });
  }
}

/**
 * The lines of a rules file that carry something (not blank, not a `#` comment), numbered from 1;
 * a line longer than the limit is reported and skipped.
 */
export function* ruleLines(
  text: string,
  maxLineLength: number,
  problems: ProblemList,
): Generator<{ line: number; raw: string; trimmed: string }> {
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (raw.length > maxLineLength)
      problems.add(index + 1, `lines are limited to ${maxLineLength} characters`);
    else yield { line: index + 1, raw, trimmed };
  }
}
