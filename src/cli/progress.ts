import cliProgress, { type Options, type Params } from 'cli-progress';
import { formatBytes } from './upload/byte-sizes.js';

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * A bar on `out` (cli-progress) drawn by `format`: redrawn in place on a terminal, a line per second
 * when it is a file or a pipe, so logs of unattended runs still show how far the work got.
 */
export function progressBar(
  out: NodeJS.WriteStream,
  format: (options: Options, params: Params, payload: Record<string, unknown>) => string,
): cliProgress.SingleBar {
  return new cliProgress.SingleBar({
    stream: out,
    format,
    barsize: 24,
    barCompleteChar: '#',
    barIncompleteChar: '-',
    fps: 10,
    noTTYOutput: true,
    notTTYSchedule: 1000,
    // Off a terminal every draw already ends its line: no blank line at the end.
    clearOnComplete: !out.isTTY,
    hideCursor: false,
  });
}

/** A byte-progress bar on stderr, with rate and ETA. */
export class Progress {
  private readonly bar: cliProgress.SingleBar;
  private readonly startBytes: number;
  private finished = false;

  constructor(total: number, start: number, out: NodeJS.WriteStream = process.stderr) {
    this.startBytes = start;
    this.bar = progressBar(out, (options, params) => this.line(options, params));
    this.bar.start(total, start);
  }

  set(bytes: number): void {
    this.bar.update(bytes);
  }

  /** Draws the final state and stops redrawing (safe to call twice). */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.bar.stop();
  }

  private line(options: Options, params: Params): string {
    const elapsed = Math.max((Date.now() - params.startTime) / 1000, 0.001);
    const rate = (params.value - this.startBytes) / elapsed;
    const eta = rate > 0 ? (params.total - params.value) / rate : Number.POSITIVE_INFINITY;
    const progress = params.total === 0 ? 1 : params.progress;
    return (
      `[${cliProgress.Format.BarFormat(progress, options)}] ${String(Math.floor(progress * 100)).padStart(3)}%  ` +
      `${formatBytes(params.value)} / ${formatBytes(params.total)}  ${formatBytes(rate)}/s  ETA ${formatDuration(eta)}`
    );
  }
}
