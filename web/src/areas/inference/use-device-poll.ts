import { useEffect, useState } from 'react';
import { api, call } from '../../api/client';
import type { OAuthSession } from './queries';

/**
 * Asks the gateway to poll the provider's token endpoint for a device sign-in, never faster than
 * the session's interval (which grows when the provider says `slow_down`), until the session is no
 * longer pending. A failed poll (the provider unreachable) is reported and polling goes on.
 */
export function useDevicePoll(started: OAuthSession) {
  const [session, setSession] = useState(started);
  const [pollError, setPollError] = useState<unknown>();
  useEffect(() => {
    if (session.status !== 'pending') return;
    const timer = setTimeout(
      async () => {
        try {
          const next = await call(
            api.POST('/api/inference/providers/oauth/{id}/complete', {
              params: { path: { id: session.id } },
              body: {},
            }),
          );
          setPollError(undefined);
          setSession(next);
        } catch (error) {
          setPollError(error);
          // A new object, so the effect schedules the next poll.
          setSession((current) => ({ ...current }));
        }
      },
      (session.pollIntervalSeconds ?? 5) * 1000,
    );
    return () => clearTimeout(timer);
  }, [session]);
  return { session, pollError };
}
