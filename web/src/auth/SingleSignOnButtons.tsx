import { Button, Divider, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';

/** Why a single sign-on ended back here (`/signin?sso=<reason>`), in words. */
export const SSO_REFUSALS: Record<string, string> = {
  SSO_STATE_INVALID:
    'The sign-in through your provider expired or was started in another browser. Try again.',
  SSO_TOKEN_INVALID: 'Your provider answered with an identity the gateway could not verify.',
  SSO_REFUSED: 'Your provider did not sign you in.',
  SSO_PROVIDER_UNREACHABLE: 'Your provider could not be reached. Try again later.',
  SSO_PROVIDER_DISABLED: 'This sign-in provider is turned off.',
  SSO_EMAIL_MISSING: 'Your provider did not vouch for an email address.',
  SSO_EMAIL_NOT_ALLOWED: 'Your email address may not sign in through this provider.',
  SSO_USER_UNKNOWN: 'There is no account for your email address. Ask an administrator to create one.',
  SSO_USER_DISABLED: 'Your account is disabled.',
  SSO_NO_GROUP: 'Your provider groups give no access to this gateway.',
  TOO_MANY_FAILED_LOGINS: 'Too many failed sign-ins. Wait a while, then try again.',
};

/** One "Sign in with <provider>" link per enabled provider: a full page load to the start route. */
export function SingleSignOnButtons({ next }: { next: string }) {
  const providers = useQuery({
    queryKey: ['sign-in-providers'],
    queryFn: () => call(api.GET('/auth/oidc/providers')),
  });
  const list = providers.data?.data ?? [];
  if (list.length === 0) return null;
  const query = next === '/' ? '' : `?${new URLSearchParams({ next })}`;
  return (
    <Stack gap="xs">
      <Divider label="or" labelPosition="center" />
      {list.map((provider) => (
        <Button
          key={provider.id}
          component="a"
          href={`/auth/oidc/${provider.id}/start${query}`}
          variant="default"
          fullWidth
        >
          Sign in with {provider.name}
        </Button>
      ))}
    </Stack>
  );
}
