import type { PullProgress } from './schemas/images.js';

/** What a pull's progress messages told of one layer so far (the CLI's bar and the console's list). */
export interface LayerState {
  /** The engine's latest words about it. */
  status: string;
  done: boolean;
  /** Bytes; 0 while the engine reports none (Podman never does). */
  current: number;
  total: number;
}

/** The engine's words for a layer that needs no more transfer (Docker's and Podman's). */
const LAYER_DONE = /complete|already exists/i;

/** A layer's state after one more message about it: once done it stays done, with every byte counted. */
export function nextLayerState(previous: LayerState | undefined, event: PullProgress): LayerState {
  const state = { ...(previous ?? { done: false, current: 0, total: 0 }), status: event.status };
  state.done ||= LAYER_DONE.test(event.status);
  if (event.total) state.total = event.total;
  if (event.current !== null) state.current = event.current;
  if (state.done) state.current = state.total;
  return state;
}

/** How far a layer is, 0 to 100: done is 100 even when the engine never reported bytes. */
export function layerPercent(state: LayerState): number {
  if (state.done) return 100;
  return state.total > 0 ? Math.min(100, Math.round((state.current / state.total) * 100)) : 0;
}
