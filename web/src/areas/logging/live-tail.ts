import { useEffect, useState } from 'react';
import type { LogRecord } from './queries';

/** The most tailed records kept on the page; older ones are in the search. */
const KEPT = 200;

/**
 * New records from the environment's tail (Server-Sent Events, with the session cookie) while
 * `url` is set, newest first. Turning it off (pause) closes the stream and keeps what arrived.
 */
export function useLiveTail(url: string | undefined) {
  const [records, setRecords] = useState<LogRecord[]>([]);
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    if (!url) return;
    const source = new EventSource(url);
    source.onopen = () => setConnected(true);
    source.onerror = () => setConnected(false);
    source.addEventListener('record', (event) => {
      const record = JSON.parse((event as MessageEvent<string>).data) as LogRecord;
      setRecords((current) => [record, ...current].slice(0, KEPT));
    });
    return () => {
      source.close();
      setConnected(false);
    };
  }, [url]);
  return { records, connected, clear: () => setRecords([]) };
}
