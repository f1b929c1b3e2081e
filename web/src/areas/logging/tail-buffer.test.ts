import { describe, expect, it } from 'vitest';
import { emptyTail, KEPT, overflowed, type TailBuffer, type TailEvent, tailBuffer } from './tail-buffer';

const play = (events: TailEvent<number>[]): TailBuffer<number> => events.reduce(tailBuffer, emptyTail());
const arrived = (record: number, paused = false): TailEvent<number> => ({ type: 'arrived', record, paused });

describe('the live tail buffer', () => {
  it('shows records as they arrive, newest first', () => {
    expect(play([arrived(1), arrived(2)]).shown).toEqual([2, 1]);
  });

  it('holds the records that arrive while paused, counting them, and shows nothing new', () => {
    const state = play([arrived(1), arrived(2, true), arrived(3, true)]);
    expect(state).toEqual({ shown: [1], held: [3, 2], heldCount: 2 });
  });

  it('shows the held records above the earlier ones on resume', () => {
    const state = play([arrived(1), arrived(2, true), arrived(3, true), { type: 'resumed' }, arrived(4)]);
    expect(state).toEqual({ shown: [4, 3, 2, 1], held: [], heldCount: 0 });
  });

  it(`keeps the newest ${KEPT} shown`, () => {
    const state = play(Array.from({ length: KEPT + 5 }, (_, index) => arrived(index)));
    expect(state.shown).toHaveLength(KEPT);
    expect(state.shown[0]).toBe(KEPT + 4);
  });

  it(`holds the newest ${KEPT} while paused and says when more arrived`, () => {
    const state = play(Array.from({ length: KEPT + 1 }, (_, index) => arrived(index, true)));
    expect(state.held).toHaveLength(KEPT);
    expect(state.heldCount).toBe(KEPT + 1);
    expect(overflowed(state)).toBe(true);
    expect(overflowed(play([arrived(1, true)]))).toBe(false);
  });

  it('forgets everything when cleared (a new search)', () => {
    expect(play([arrived(1), arrived(2, true), { type: 'cleared' }])).toEqual(emptyTail());
  });
});
