/**
 * Up and down in the Command box walk through the user's earlier commands, as in a shell: the
 * text being typed is kept as the draft and comes back when the user walks past the newest entry.
 */
export interface HistoryCursor {
  /** -1: the draft; 0: the newest entry; 1: the one before … */
  position: number;
  draft: string;
}

export const AT_DRAFT: HistoryCursor = { position: -1, draft: '' };

/** The commands to walk through, newest first, without repeats in a row. */
export function historyEntries(commands: readonly string[]): string[] {
  return commands.filter((command, index) => index === 0 || command !== commands[index - 1]);
}

/**
 * One step older or newer from `cursor`, with the text now in the box. Answers the new cursor and
 * the text to show, or undefined when there is nowhere to go.
 */
export function stepHistory(
  entries: readonly string[],
  cursor: HistoryCursor,
  typed: string,
  direction: 'older' | 'newer',
): { cursor: HistoryCursor; text: string } | undefined {
  const position = cursor.position + (direction === 'older' ? 1 : -1);
  if (position < -1 || position >= entries.length) return undefined;
  const draft = cursor.position === -1 ? typed : cursor.draft;
  const text = position === -1 ? draft : entries[position]!;
  return { cursor: { position, draft }, text };
}
