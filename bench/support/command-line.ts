/** The value after `--<name>` on the command line, or the fallback. */
export function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1]!;
}

/** A number given as `--<name> <n>` on the command line, or the fallback. */
export const numberOption = (name: string, fallback: number): number =>
  Number(option(name, String(fallback)));
