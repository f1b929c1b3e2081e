/** Parsers of the text replies the server panes show (INFO, CLIENT LIST). */

/** INFO's `# Section` blocks of `name:value` lines, by lower-case section name. */
export function parseInfo(text: string): Record<string, Record<string, string>> {
  const sections: Record<string, Record<string, string>> = {};
  let current: Record<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      current = {};
      sections[line.slice(1).trim().toLowerCase()] = current;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    current ??= sections.general = {};
    current[line.slice(0, colon)] = line.slice(colon + 1);
  }
  return sections;
}

/** CLIENT LIST's lines of `name=value` pairs, one object per client. */
export function parseClientList(text: string): Record<string, string>[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const client: Record<string, string> = {};
      // Fields are separated by single spaces (the server refuses names with spaces); split at the first `=`.
      for (const pair of line.trim().split(' ')) {
        const equals = pair.indexOf('=');
        if (equals > 0) client[pair.slice(0, equals)] = pair.slice(equals + 1);
      }
      return client;
    });
}
