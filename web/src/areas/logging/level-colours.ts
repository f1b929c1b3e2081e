/** Each level's Mantine colour, the same in the records' level column and the histogram's bars. */
export const LEVEL_COLOURS: Record<string, string> = {
  trace: 'gray',
  debug: 'cyan',
  info: 'blue',
  warn: 'yellow',
  error: 'red',
  fatal: 'grape',
};

export const levelColour = (level: string) => LEVEL_COLOURS[level] ?? 'gray';
