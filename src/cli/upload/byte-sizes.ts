import { CliError } from '../cli-error.js';

/** Byte counts as people write and read them: `512K` in options, `1.5 MiB` in output. */

/** `65536`, `512K`, `8M`, `1G` (also `KiB`, `MB`…, all powers of 1024) as a positive byte count. */
export function parseByteSize(text: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([KMG]i?B?|B)?$/i.exec(text.trim());
  if (!match) throw new CliError(`${option} takes a size such as 65536, 512K, 8M or 1G`);
  const unit = (match[2] ?? '').charAt(0).toUpperCase();
  const factor = unit === 'K' ? 1024 : unit === 'M' ? 1024 ** 2 : unit === 'G' ? 1024 ** 3 : 1;
  const value = Math.floor(Number(match[1]) * factor);
  if (value <= 0) throw new CliError(`${option} must be positive`);
  return value;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
