import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { api, call, onSessionLost, setCsrfToken } from '../api/client';
import { ApiError } from '../api/errors';
import type { Answer, Body } from '../api/types';
import type { SignInReason } from './return-path';
import { expiryCheckDelay } from './session-expiry';

export type CurrentUser = Answer<'/auth/me', 'get'>['data'];
type LoginAnswer = Answer<'/auth/login/totp', 'post'>['data'];
/** What a right password leads to when the account has (or must set up) a second factor. */
export type SecondStepChallenge = Exclude<Answer<'/auth/login', 'post'>['data'], LoginAnswer>;

interface Session {
  /** Undefined while the console asks the gateway who is signed in. */
  user: CurrentUser | null | undefined;
  /** Why the last session ended, when the console ended it (not set on a first visit). */
  ended: SignInReason | undefined;
  /** Set when the gateway could not be asked who is signed in (it is down or unreachable). */
  loadError: unknown;
  retry(): void;
  /** Signs in, or answers the challenge of the second step (no session yet). */
  signIn(credentials: Body<'/auth/login', 'post'>): Promise<SecondStepChallenge | undefined>;
  /** Completes a login with a TOTP or recovery code; answers recovery codes after a required enrolment. */
  completeSecondStep(proof: Body<'/auth/login/totp', 'post'>): Promise<string[] | undefined>;
  /** Begins the session held back while the recovery codes of a required enrolment were shown. */
  resumeAfterCodes(): void;
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

  // An idle page asks the gateway again when its session ends: the 401 then ends it here too.
  const sessionExpiresAt = current.data?.sessionExpiresAt;
  const { refetch, dataUpdatedAt } = current;
  useEffect(() => {
    if (!sessionExpiresAt) return;
    // Counted from the last answer, so each answer schedules the next check (also an unchanged end).
    const timer = setTimeout(() => void refetch(), expiryCheckDelay(sessionExpiresAt, dataUpdatedAt));
    return () => clearTimeout(timer);
  }, [sessionExpiresAt, dataUpdatedAt, refetch]);

  /** A completed login whose recovery codes are on screen; the session begins when they are put away. */
  const pending = useRef<LoginAnswer | undefined>(undefined);
  const begin = useCallback(
    (data: LoginAnswer) => {
      setCsrfToken(data.csrfToken);
      setEnded(undefined);
      queryClient.setQueryData(SESSION_KEY, {
        ...data.user,
        csrfToken: data.csrfToken,
        sessionExpiresAt: data.expiresAt,
      });
    },
    [queryClient],
  );

  const session = useMemo<Session>(
    () => ({
      user: current.data,
      ended,
      loadError: current.data === undefined ? current.error : undefined,
      retry: () => void current.refetch(),
      async signIn(credentials) {
        const { data } = await call(api.POST('/auth/login', { body: credentials }));
        if (!('token' in data)) return data;
        begin(data);
        return undefined;
      },
      async completeSecondStep(proof) {
        const { data } = await call(api.POST('/auth/login/totp', { body: proof }));
        // Recovery codes must be shown before the console moves on: the caller begins the session.
        if (data.recoveryCodes) {
          pending.current = data;
          return data.recoveryCodes;
        }
        begin(data);
        return undefined;
      },
      resumeAfterCodes() {
        if (pending.current) begin(pending.current);
        pending.current = undefined;
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
    [current.data, current.error, current.refetch, ended, end, begin, queryClient],
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
