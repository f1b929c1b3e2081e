import { type ComponentType, createElement, type ReactElement, useEffect, useState } from 'react';
import { PageLoader } from '../components/PageLoader';

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

/** A part of the console loaded on demand: a component, which can be asked to load ahead of its first render. */
export interface Part<Props extends object = Record<string, never>> {
  (props: Props): ReactElement;
  /** Starts loading the part (once); resolves when it is loaded, and never rejects. */
  preload(): Promise<void>;
}

/**
 * A part of the console loaded on demand. Until its code is there it shows the page loader; once
 * loaded (by a render or by `preload`), it renders at once.
 *
 * Not `React.lazy` under a Suspense boundary: React holds back what a boundary reveals until
 * 300 ms after its fallback showed, so every page opened by its address waited that long after its
 * code had arrived.
 *
 * When the part fails to load and the tab reloads (above), Vite answers the import with nothing
 * instead of an error: the part then goes on showing the loader until the reload replaces the page.
 * Any other failure is thrown from its render.
 */
export function lazyPart<Props extends object = Record<string, never>>(
  load: () => Promise<{ default: ComponentType<Props> }>,
): Part<Props> {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<unknown> | undefined;
  function loadOnce() {
    loading ??= load().then(
      (module: { default: ComponentType<Props> } | undefined) => {
        if (module) loaded = module.default;
        else return new Promise<never>(() => {});
      },
      (error: unknown) => {
        // The next render asks again.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  }
  function LoadedOnDemand(props: Props) {
    const [, showLoaded] = useState(false);
    const [failure, setFailure] = useState<{ error: unknown }>();
    const shown = loaded;
    useEffect(() => {
      // Not `loaded`: a preload may have finished after this render showed the loader, and then
      // nothing else would render the part.
      if (shown) return;
      let mounted = true;
      loadOnce().then(
        () => mounted && showLoaded(true),
        (error: unknown) => mounted && setFailure({ error }),
      );
      return () => {
        mounted = false;
      };
    }, []);
    if (failure) throw failure.error;
    return shown ? createElement(shown, props) : createElement(PageLoader);
  }
  LoadedOnDemand.preload = () =>
    loadOnce().then(
      () => undefined,
      () => undefined,
    );
  return LoadedOnDemand;
}
