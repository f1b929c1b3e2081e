import cliProgress from 'cli-progress';
import type { Static } from 'typebox';
import type { PullProgress as PullProgressEvent } from '../modules/containerhost/schemas/images.js';
import { progressBar } from './progress.js';
import { formatBytes } from './upload/byte-sizes.js';

/** One progress event of an image pull (`{layer, status, current, total}`). */
export type PullEvent = Static<typeof PullProgressEvent>;

/** The engine's words for a layer that needs no more transfer. */
const LAYER_DONE = /complete|already exists/i;

/**
 * One bar for the whole pull: layers done of the layers seen so far, with the bytes when the
 * engine reports them (Podman reports none), and the engine's latest words.
 */
export class PullProgress {
  private readonly bar: cliProgress.SingleBar;
  private readonly layers = new Map<string, { done: boolean; current: number; total: number }>();
  private status = 'starting';
  private finished = false;

  constructor(out: NodeJS.WriteStream = process.stderr) {
    this.bar = progressBar(out, (options, params) => this.line(options, params));
    this.bar.start(0, 0);
  }

  update(event: PullEvent): void {
    this.status = event.status;
    if (event.layer) {
      const layer = this.layers.get(event.layer) ?? { done: false, current: 0, total: 0 };
      layer.done ||= LAYER_DONE.test(event.status);
      if (event.total) layer.total = event.total;
      if (event.current !== null) layer.current = event.current;
      if (layer.done) layer.current = layer.total;
      this.layers.set(event.layer, layer);
    }
    const layers = [...this.layers.values()];
    this.bar.setTotal(layers.length);
    this.bar.update(layers.filter((layer) => layer.done).length);
  }

  /** Draws the final state and stops redrawing (safe to call twice). */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.bar.stop();
  }

  private line(options: cliProgress.Options, params: cliProgress.Params): string {
    const progress = params.total === 0 ? 0 : params.value / params.total;
    const layers = [...this.layers.values()];
    const total = layers.reduce((sum, layer) => sum + layer.total, 0);
    const bytes =
      total > 0
        ? `  ${formatBytes(layers.reduce((sum, layer) => sum + layer.current, 0))} / ${formatBytes(total)}`
        : '';
    return `[${cliProgress.Format.BarFormat(progress, options)}] ${params.value}/${params.total} layers${bytes}  ${this.status}`;
  }
}
