import { Anchor, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { api, call } from '../../api/client';
import { FormBanner, useApiForm } from '../../components/api-form';
import type { OAuthSession } from './queries';
import { SessionOutcome } from './SessionOutcome';

/**
 * Redirect sign-in: the user signs in at the provider in a new tab, which then lands on an address
 * that may not load (a loopback redirect URI); they paste that address here.
 */
export function RedirectFlow({
  session,
  onSettled,
  onRestart,
}: {
  session: OAuthSession;
  onSettled: (session: OAuthSession) => void;
  onRestart: () => void;
}) {
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { callback: '' },
    submit: ({ callback }) =>
      call(
        api.POST('/api/inference/providers/oauth/{id}/complete', {
          params: { path: { id: session.id } },
          body: { callback },
        }),
      ),
    onDone: (answer) => onSettled(answer),
  });
  if (session.status !== 'pending') return <SessionOutcome session={session} onRestart={onRestart} />;
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          1.{' '}
          <Anchor href={session.authorizationUrl} target="_blank" rel="noreferrer">
            Open the provider’s sign-in page
          </Anchor>{' '}
          in a new tab and sign in.
        </Text>
        <Text size="sm">
          2. The provider then sends that tab to an address that may not load. Copy the whole address from its
          address bar (or the code it shows) and paste it here.
        </Text>
        <FormBanner message={banner} title="Not signed in" />
        <Textarea
          label="Callback URL"
          description="e.g. http://localhost:1455/auth/callback?code=…&state=…"
          autosize
          minRows={2}
          {...form.getInputProps('callback')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={submitting}>
            Complete sign-in
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
