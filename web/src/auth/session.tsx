import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { api, call, onSessionLost, setCsrfToken } from '../api/client';
import { ApiError } from '../api/errors';
import type { Answer, Body } from '../api/types';
import type { SignInReason } from './return-path';

export type CurrentUser = Answer<'/auth/me', 'get'>['data'];

interface Session {
  /** Undefined while the console asks the gateway who is signed in. */
  user: CurrentUser | null | undefined;
  /** Why the last session ended, when the console ended it (not set on a first visit). */
  ended: SignInReason | undefined;
  /** Set when the gateway could not be asked who is signed in (it is down or unreachable). */
  loadError: unknown;
  retry(): void;
  signIn(credentials: Body<'/auth/login', 'post'>): Promise<void>;
  /** After the first-start setup signed the browser in with a cookie. */
  adopt(): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | undefined>(undefined);
const SESSION_KEY = ['session'] as const;

/** Who is signed in: `null` when nobody is (the gateway answered 401). */
async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    const { data } = await call(api.GET('/auth/me'));
    setCsrfToken(data.csrfToken);
    return data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/**
 * The browser session: the signed-in user (with scopes) from `GET /auth/me`, sign-in and sign-out.
 * Any 401 of the API ends it, so every page returns to sign-in the same way.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [ended, setEnded] = useState<SignInReason | undefined>();
  const current = useQuery({ queryKey: SESSION_KEY, queryFn: fetchCurrentUser, staleTime: 60_000 });

  const end = useCallback(
    (reason: SignInReason) => {
      setCsrfToken(undefined);
      setEnded(reason);
      // Nothing of the previous user stays in the cache for whoever signs in next.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
      queryClient.setQueryData(SESSION_KEY, null);
    },
    [queryClient],
  );

  useEffect(() => {
    onSessionLost(() => {
      // Late answers to requests of a session that has ended already change nothing.
      if (queryClient.getQueryData(SESSION_KEY)) end('expired');
    });
    return () => onSessionLost(undefined);
  }, [end, queryClient]);

  const session = useMemo<Session>(
    () => ({
      user: current.data,
      ended,
      loadError: current.data === undefined ? current.error : undefined,
      retry: () => void current.refetch(),
      async signIn(credentials) {
        const { data } = await call(api.POST('/auth/login', { body: credentials }));
        setCsrfToken(data.csrfToken);
        setEnded(undefined);
        queryClient.setQueryData(SESSION_KEY, { ...data.user, csrfToken: data.csrfToken });
      },
      async adopt() {
        setEnded(undefined);
        await queryClient.fetchQuery({ queryKey: SESSION_KEY, queryFn: fetchCurrentUser, staleTime: 0 });
      },
      async signOut() {
        await call(api.POST('/auth/logout')).catch(() => undefined);
        end('signed-out');
      },
    }),
    [current.data, current.error, current.refetch, ended, end, queryClient],
  );

  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() outside <SessionProvider>');
  return session;
}

/** The signed-in user, for pages inside the shell (which only renders with one). */
export function useCurrentUser(): CurrentUser {
  const { user } = useSession();
  if (!user) throw new Error('useCurrentUser() without a signed-in user');
  return user;
}
