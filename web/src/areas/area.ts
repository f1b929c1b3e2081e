import { createContext, useContext } from 'react';
import type { AccessRule } from '../auth/access';
import type { Part } from '../shell/reload-on-failed-load';

/**
 * One area of the console, declared by `areas/<area>/index.ts` and listed once in `areas/index.ts`.
 * The shell turns it into a navigation link and a route; its page is a chunk of its own, loaded
 * when the area is first opened.
 */
export interface ConsoleArea extends AccessRule {
  /** The link's text in the navigation (its accessible name), e.g. `Users`. */
  label: string;
  /** Where the area lives, e.g. `/users`; the page may route below it (`/users/groups`). */
  path: string;
  /** Shown on the home page's "no access" notice and in the not-allowed message. */
  description: string;
  /** `lazyPart(() => import('./UsersPage'))`: the page, with its own `<Routes>` for sub-pages. */
  page: Part;
}

/** Whether `pathname` is the area's page or one of its sub-pages. */
export function isWithinArea(area: ConsoleArea, pathname: string): boolean {
  return pathname === area.path || pathname.startsWith(`${area.path}/`);
}

/**
 * The registry, handed down by the app: pages that need every area (the scope suggestions of the
 * Users page) read it here instead of importing `areas/index.ts`, which imports them.
 */
export const ConsoleAreas = createContext<readonly ConsoleArea[]>([]);

export function useConsoleAreas(): readonly ConsoleArea[] {
  return useContext(ConsoleAreas);
}
