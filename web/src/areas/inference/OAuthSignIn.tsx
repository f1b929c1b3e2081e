import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, call } from '../../api/client';
import { FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { DeviceFlow } from './DeviceFlow';
import { CONNECTIONS_KEY, type OAuthSession, type Provider } from './queries';
import { RedirectFlow } from './RedirectFlow';

/**
 * An OAuth sign-in that creates a connection: start a session (naming the connection), then the
 * provider's flow. A session left pending when the dialog closes is cancelled.
 */
export function OAuthSignIn({ provider, onClose }: { provider: Provider; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<OAuthSession | undefined>();
  const pending = useRef<string | undefined>(undefined);
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: provider.label },
    submit: ({ name }) =>
      call(api.POST('/api/inference/providers/oauth/start', { body: { providerId: provider.id, name } })),
    onDone: (started) => {
      pending.current = started.id;
      setSession(started);
    },
  });

  useEffect(
    () => () => {
      const id = pending.current;
      if (id)
        void call(api.POST('/api/inference/providers/oauth/{id}/cancel', { params: { path: { id } } })).catch(
          () => undefined,
        );
    },
    [],
  );

  const settled = useCallback(
    async (answer: OAuthSession) => {
      if (answer.status === 'pending') return;
      pending.current = undefined;
      setSession(answer);
      if (answer.status !== 'complete') return;
      notifySuccess(`Signed in: the connection ${form.values.name} is ready.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: CONNECTIONS_KEY });
    },
    [form.values.name, onClose, queryClient],
  );
  const restart = () => setSession(undefined);

  if (!session) {
    return (
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} title="Not started" />
          <TextInput
            label="Name"
            description="The connection the sign-in creates"
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={submitting}>
              Start sign-in
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }
  return session.completionMode === 'device_poll' ? (
    <DeviceFlow started={session} onComplete={settled} onRestart={restart} />
  ) : (
    <RedirectFlow session={session} onSettled={settled} onRestart={restart} />
  );
}
