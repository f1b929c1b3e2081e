/**
 * What PostgreSQL refuses in text and jsonb: the NUL character, and a UTF-16 surrogate without its
 * pair (JSON may escape one, `"\ud800"`, and JavaScript strings hold it; the database cannot encode
 * it as UTF-8). Both the input guard (every request) and log ingest (every record) ask this.
 */

/** Either character; one scan per string, the details only after a match. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL character is what this looks for
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why the database could not store `text`, or undefined when it can. */
export function unstorableText(text: string): string | undefined {
  if (!SUSPECT.test(text)) return undefined;
  if (text.includes('\u0000')) return 'must not contain the NUL character';
  if (LONE_SURROGATE.test(text)) return 'must not contain an unpaired UTF-16 surrogate';
  return undefined;
}
