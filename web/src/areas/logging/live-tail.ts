import { useEffect, useReducer, useRef, useState } from 'react';
import type { LogRecord } from './queries';
import { emptyTail, overflowed, tailBuffer } from './tail-buffer';

/**
 * New records from the environment's tail (Server-Sent Events, with the session cookie) while
 * `url` is set, newest first. Pausing keeps the stream open and holds what arrives until
 * `resume()`, so no record is missed; turning the tail off (`url` unset) closes the stream.
 */
export function useLiveTail(url: string | undefined) {
  const [buffer, dispatch] = useReducer(tailBuffer<LogRecord>, undefined, emptyTail<LogRecord>);
  const [connected, setConnected] = useState(false);
  const [paused, setPaused] = useState(false);
  // The stream's listener reads the latest pause state without reopening the stream.
  const pausedNow = useRef(paused);
  pausedNow.current = paused;
  useEffect(() => {
    if (!url) return;
    const source = new EventSource(url);
    source.onopen = () => setConnected(true);
    source.onerror = () => setConnected(false);
    source.addEventListener('record', (event) => {
      const record = JSON.parse((event as MessageEvent<string>).data) as LogRecord;
      dispatch({ type: 'arrived', record, paused: pausedNow.current });
    });
    return () => {
      source.close();
      setConnected(false);
      // What arrived while paused was received: it shows once the tail is off.
      setPaused(false);
      dispatch({ type: 'resumed' });
    };
  }, [url]);
  return {
    records: buffer.shown,
    connected,
    paused,
    /** How many arrived while paused. */
    heldCount: buffer.heldCount,
    /** More arrived while paused than the page holds: a new search shows them all. */
    overflowed: overflowed(buffer),
    pause: () => setPaused(true),
    resume: () => {
      setPaused(false);
      dispatch({ type: 'resumed' });
    },
    clear: () => dispatch({ type: 'cleared' }),
  };
}
