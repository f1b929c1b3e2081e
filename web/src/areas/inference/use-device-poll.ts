import { useEffect, useReducer } from 'react';
import { api, call } from '../../api/client';
import { afterPoll, nextPollDelayMs } from './device-poll';
import type { OAuthSession } from './queries';

/**
 * Asks the gateway to poll the provider's token endpoint for a device sign-in, never faster than
 * the session's interval (which grows when the provider says `slow_down`), until the session is no
 * longer pending. A failed poll (the provider unreachable) is reported and polling goes on.
 */
export function useDevicePoll(started: OAuthSession) {
  const [{ session, pollError }, polled] = useReducer(afterPoll, { session: started, pollError: undefined });
  useEffect(() => {
    const delay = nextPollDelayMs(session);
    if (delay === undefined) return;
    const timer = setTimeout(async () => {
      try {
        const answered = await call(
          api.POST('/api/inference/providers/oauth/{id}/complete', {
            params: { path: { id: session.id } },
            body: {},
          }),
        );
        polled({ answered });
      } catch (failed) {
        polled({ failed });
      }
    }, delay);
    return () => clearTimeout(timer);
  }, [session]);
  return { session, pollError };
}
