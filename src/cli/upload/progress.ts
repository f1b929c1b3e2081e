import { formatBytes } from './byte-sizes.js';

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The progress bar: redrawn in place on a terminal, a line per second otherwise. */
export class Progress {
  private readonly startedAt = Date.now();
  private lastDraw = 0;
  private lastDrawnBytes = -1;
  private done: number;
  private readonly startBytes: number;

  constructor(
    private readonly total: number,
    start: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {
    this.done = start;
    this.startBytes = start;
  }

  set(bytes: number): void {
    this.done = bytes;
    this.draw(false);
  }

  finish(): void {
    this.draw(true);
    if (this.out.isTTY) this.out.write('\n');
  }

  private draw(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.lastDraw < (this.out.isTTY ? 100 : 1000)) return;
    if (force && !this.out.isTTY && this.lastDrawnBytes === this.done) return;
    this.lastDraw = now;
    this.lastDrawnBytes = this.done;
    const elapsed = Math.max((now - this.startedAt) / 1000, 0.001);
    const rate = (this.done - this.startBytes) / elapsed;
    const fraction = this.total === 0 ? 1 : this.done / this.total;
    const width = 24;
    const filled = Math.round(fraction * width);
    const eta = rate > 0 ? (this.total - this.done) / rate : Number.POSITIVE_INFINITY;
    const line =
      `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ` +
      `${formatBytes(this.done)} / ${formatBytes(this.total)}  ${formatBytes(rate)}/s  ETA ${formatDuration(eta)}`;
    this.out.write(this.out.isTTY ? `\r${line}\x1b[K` : `${line}\n`);
  }
}
