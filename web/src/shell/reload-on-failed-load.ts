import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** sessionStorage key: when this tab last reloaded because a part of the console failed to load. */
const RELOADED_AT = 'infragate:reloaded-after-failed-load';
/** A second failure this soon after such a reload is not retried: the error shows instead. */
const AGAIN_WITHIN_MS = 10_000;

/**
 * Pages and dialogs load on demand, and a part can fail to arrive: Chromium aborts requests in
 * flight when a network interface comes or goes (a container engine adding one for a container, a
 * laptop changing networks), and a deployment replaces the chunks an open tab still names. When
 * both the preload and the import of a module fail, the page has nothing to render and goes blank:
 * the console reloads the tab, once, which fetches everything again. Vite reports such a failure as
 * `vite:preloadError`.
 */
export function reloadWhenAPartFailsToLoad(): void {
  window.addEventListener('vite:preloadError', (event) => {
    const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last < AGAIN_WITHIN_MS) return;
    event.preventDefault();
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    window.location.reload();
  });
}

/**
 * `React.lazy` for a part of the console. When the part fails to load and the tab reloads (above),
 * Vite answers the import with nothing instead of an error; the part then waits (its Suspense
 * fallback shows) until the reload replaces the page, rather than failing to render.
 */
// biome-ignore lint/suspicious/noExplicitAny: the bound React.lazy itself puts on a component.
export function lazyPart<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): LazyExoticComponent<T> {
  return lazy(() =>
    load().then((module: { default: T } | undefined) => module ?? new Promise<{ default: T }>(() => {})),
  );
}
