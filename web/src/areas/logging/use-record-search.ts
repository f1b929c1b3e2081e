import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type RecordFilters, rangeProblem, recordFiltersFrom, withRecordFilters } from './record-filters';

/** How long typing rests before the search follows it. */
const TYPING_PAUSE_MS = 400;

/** The filters as the address keeps them (trimmed, without a field filter that is not `name=value`). */
const searched = (filters: RecordFilters) =>
  JSON.stringify(recordFiltersFrom(withRecordFilters(new URLSearchParams(), filters)));

/**
 * The search of the records view. What is searched lives in the address (a reload or a shared link
 * shows the same records); what the search bar holds (`draft`) follows it there once typing pauses,
 * and until then `pending` says the records shown are not yet of the filters shown. A draft that
 * cannot be searched (a custom range ending before it starts) stays pending with its `problem`.
 */
export function useRecordSearch(onSearch: () => void) {
  const [params, setParams] = useSearchParams();
  const applied = recordFiltersFrom(params);
  const appliedKey = JSON.stringify(applied);
  const [draft, setDraft] = useState(applied);
  // A relative range counts back from when its search started, so the pages of one search agree;
  // searching again (the same filters included) starts it anew.
  const [started, setStarted] = useState({ key: appliedKey, at: Date.now(), run: 0 });
  if (started.key !== appliedKey) setStarted({ key: appliedKey, at: Date.now(), run: started.run + 1 });

  // A search from elsewhere (a facet, the histogram, going back) replaces what the bar holds.
  const written = useRef(appliedKey);
  useEffect(() => {
    if (written.current === appliedKey) return;
    written.current = appliedKey;
    setDraft(JSON.parse(appliedKey) as RecordFilters);
  }, [appliedKey]);

  const searchLatest = useRef(onSearch);
  searchLatest.current = onSearch;
  const apply = (next: RecordFilters, typing = false) => {
    setDraft(next);
    if (rangeProblem(next)) return;
    written.current = searched(next);
    // Typing replaces the address rather than adding a step to the history per pause.
    setParams((current) => withRecordFilters(current, next), { replace: typing });
    setStarted((now) => ({ ...now, at: Date.now(), run: now.run + 1 }));
    searchLatest.current();
  };

  const problem = rangeProblem(draft);
  const pending = problem !== undefined || searched(draft) !== appliedKey;
  const applyLatest = useRef(apply);
  applyLatest.current = apply;
  useEffect(() => {
    if (!pending || problem) return;
    const timer = setTimeout(() => applyLatest.current(draft, true), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [draft, pending, problem]);

  return {
    applied,
    draft,
    /** The bar's edit: searched once typing pauses. */
    edit: setDraft,
    /** Searches now (the Search button, a facet, a value of a record, the histogram). */
    apply,
    pending,
    problem,
    /** When the search started (a relative range counts back from it), and a count of searches. */
    startedAt: started.at,
    run: started.run,
  };
}
