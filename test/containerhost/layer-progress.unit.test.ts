import { describe, expect, it } from 'vitest';
import { layerPercent, nextLayerState } from '../../src/modules/containerhost/layer-progress.js';

// What the CLI's bar and the console's list make of a pull's progress messages about one layer.
const message = (status: string, current: number | null = null, total: number | null = null) => ({
  layer: 'a1b2c3',
  status,
  current,
  total,
});

describe('the progress of one pulled layer', () => {
  it('counts the bytes the engine reports', () => {
    const state = nextLayerState(undefined, message('Downloading', 250, 1000));
    expect(state).toEqual({ status: 'Downloading', done: false, current: 250, total: 1000 });
    expect(layerPercent(state)).toBe(25);
  });

  it('is done at the engine’s words for it, with every byte counted', () => {
    const downloading = nextLayerState(undefined, message('Downloading', 250, 1000));
    const done = nextLayerState(downloading, message('Pull complete'));
    expect(done).toEqual({ status: 'Pull complete', done: true, current: 1000, total: 1000 });
    expect(layerPercent(done)).toBe(100);
  });

  it('is done when it already exists, although Podman reports no bytes', () => {
    expect(layerPercent(nextLayerState(undefined, message('Already exists')))).toBe(100);
  });

  it('stays done when a later message says less', () => {
    const done = nextLayerState(undefined, message('Download complete'));
    expect(nextLayerState(done, message('Extracting')).done).toBe(true);
  });

  it('is at 0 while the engine reports neither bytes nor an end', () => {
    expect(layerPercent(nextLayerState(undefined, message('Pulling fs layer')))).toBe(0);
  });
});
