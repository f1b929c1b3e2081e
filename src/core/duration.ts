const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** `90s`, `15m`, `12h`, `30d`, `2w` → seconds; undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,7})([smhdw])$/.exec(text.trim());
  if (!match) return undefined;
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2]!]!;
  return seconds > 0 ? seconds : undefined;
}
