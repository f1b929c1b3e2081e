const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** A byte count for people: `0 B`, `300 KiB`, `1.5 GiB` (binary units, as the CLI prints them). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${Number(value.toFixed(digits))} ${UNITS[unit]}`;
}
