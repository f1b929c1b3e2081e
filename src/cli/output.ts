import type { FieldPath } from './field-paths.js';

/**
 * How commands print answers: an aligned table (or `key  value` lines) for a person at a terminal,
 * JSON with `--json` and whenever stdout is not a terminal, so scripts always get JSON.
 */

type Row = Record<string, unknown>;

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

/** Lines of cells padded into columns two spaces apart. */
export function alignColumns(lines: string[][]): string {
  const widths: number[] = [];
  for (const line of lines)
    line.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.length);
    });
  return lines
    .map((line) =>
      line
        .map((cell, index) => cell.padEnd(widths[index]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A value at a dotted path (`health.status`). */
function valueAt(row: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>(
      (value, part) => (value && typeof value === 'object' ? (value as Row)[part] : undefined),
      row,
    );
}

/** One table cell: lists joined with commas, objects as compact JSON, nothing as empty. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value))
    return value.map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item))).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value).replace(/\s*\n\s*/g, ' ');
}

/** `dbIndex` → `DB INDEX`, `health.status` → `STATUS`. */
function header(key: string): string {
  return key
    .split('.')
    .at(-1)!
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toUpperCase();
}

export class Output {
  constructor(
    readonly json: boolean,
    private readonly stream: NodeJS.WritableStream = process.stdout,
  ) {}

  /** Output for this command's `--json` flag: JSON when asked or when stdout is not a terminal. */
  static forOptions(options: { json?: boolean }): Output {
    return new Output(Boolean(options.json) || !process.stdout.isTTY);
  }

  line(text: string): void {
    this.stream.write(`${text}\n`);
  }

  private printJson(value: unknown): void {
    this.line(JSON.stringify(value, null, 2));
  }

  /** Records as a table of `columns` (fields of the records, dotted paths allowed), or as a JSON array. */
  list<Item>(rows: readonly Item[], columns: readonly FieldPath<Item>[], pagination?: Pagination): void {
    if (this.json) {
      this.printJson(rows);
      return;
    }
    if (rows.length === 0) {
      this.line('(none)');
    } else {
      this.line(
        alignColumns([
          columns.map(header),
          ...rows.map((row) => columns.map((key) => cell(valueAt(row, key)))),
        ]),
      );
    }
    if (pagination && pagination.totalPages > 1)
      this.line(
        `page ${pagination.page} of ${pagination.totalPages} (${pagination.total} in all); --page N for another, --all-pages for every page`,
      );
  }

  /** One record as `key  value` lines (nested objects as JSON), or as JSON. */
  record(data: unknown): void {
    if (this.json || !data || typeof data !== 'object' || Array.isArray(data)) {
      this.printJson(data);
      return;
    }
    this.line(alignColumns(Object.entries(data).map(([key, value]) => [key, cell(value)])));
  }

  /** A word beside the answer (on standard error, so `--json` output stays one document). */
  notice(text: string): void {
    process.stderr.write(`${text}\n`);
  }

  /** The answer of an action: JSON for scripts, a sentence for a person. */
  done(answer: unknown, message: string): void {
    if (this.json) this.printJson(answer);
    else this.line(message);
  }
}
