/** The most tailed records kept on the page (and held while paused); older ones are in the search. */
export const KEPT = 200;

/**
 * What a live tail has received, newest first: the records on screen, and those that arrived
 * while the tail was paused, held back until it resumes.
 */
export interface TailBuffer<T> {
  shown: T[];
  held: T[];
  /** Every record that arrived while paused, also those beyond the `KEPT` held. */
  heldCount: number;
}

export type TailEvent<T> =
  | { type: 'arrived'; record: T; paused: boolean }
  | { type: 'resumed' }
  | { type: 'cleared' };

export const emptyTail = <T>(): TailBuffer<T> => ({ shown: [], held: [], heldCount: 0 });

export function tailBuffer<T>(state: TailBuffer<T>, event: TailEvent<T>): TailBuffer<T> {
  switch (event.type) {
    case 'arrived':
      return event.paused
        ? { ...state, held: [event.record, ...state.held].slice(0, KEPT), heldCount: state.heldCount + 1 }
        : { ...state, shown: [event.record, ...state.shown].slice(0, KEPT) };
    case 'resumed':
      return { shown: [...state.held, ...state.shown].slice(0, KEPT), held: [], heldCount: 0 };
    case 'cleared':
      return emptyTail();
  }
}

/** More arrived while paused than were held: only a new search shows them all. */
export const overflowed = (state: TailBuffer<unknown>) => state.heldCount > state.held.length;
