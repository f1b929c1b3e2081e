import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { useApiForm } from '../../components/api-form';
import { ConfirmButton } from '../../components/ConfirmButton';
import { notifySuccess } from '../../components/notify';
import { RelativeTime } from '../../components/RelativeTime';
import { ServerList } from '../../components/ServerList';
import { nodeKey, useMayManageContainers } from './queries';
import { CreateDialog } from './ResourcePanel';

const CREDENTIALS_PATH = '/api/containerhost/nodes/{nodeId}/registry-credentials';
type Credential = Answer<typeof CREDENTIALS_PATH, 'get'>['data'][number];

/** Which credentials the dialog stores: new ones, or a replacement for a registry's stored ones. */
type Editing = { registry: string; username: string } | 'new';

function SaveCredentialsDialog({
  nodeId,
  editing,
  onClose,
}: {
  nodeId: string;
  editing: Editing;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const replacing = editing !== 'new';
  const { form, ...state } = useApiForm({
    initialValues: {
      registry: replacing ? editing.registry : '',
      username: replacing ? editing.username : '',
      password: '',
    },
    submit: ({ registry, username, password }) =>
      call(
        api.PUT(`${CREDENTIALS_PATH}/{registry}`, {
          params: { path: { nodeId, registry } },
          body: { username, password },
        }),
      ),
    onDone: async ({ data }) => {
      notifySuccess(`Stored the credentials for ${data.registry}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: [...nodeKey(nodeId), 'registry-credentials'] });
    },
  });
  return (
    <CreateDialog
      title={replacing ? `Replace the credentials for ${editing.registry}` : 'Store registry credentials'}
      submitLabel="Save credentials"
      opened
      onClose={onClose}
      {...state}
    >
      <TextInput
        label="Registry"
        description="host[:port], e.g. registry.example:5000; docker.io for Docker Hub"
        disabled={replacing}
        data-autofocus={!replacing}
        {...form.getInputProps('registry')}
      />
      <TextInput label="User name" autoComplete="off" {...form.getInputProps('username')} />
      <PasswordInput
        label="Password"
        description="Or an access token. Stored sealed; the gateway never shows it again."
        autoComplete="new-password"
        data-autofocus={replacing}
        {...form.getInputProps('password')}
      />
    </CreateDialog>
  );
}

/**
 * The registry credentials stored for a node, which its pulls (and recreate with a fresh pull) use
 * when the request brings none. Passwords are write-only: replacing is typing a new one.
 */
export function RegistryCredentialsPanel({ nodeId }: { nodeId: string }) {
  const mayManage = useMayManageContainers(nodeId);
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing | undefined>();
  const storeButton = mayManage ? (
    <Button onClick={() => setEditing('new')}>Store credentials</Button>
  ) : undefined;
  const remove = async ({ registry }: Credential) => {
    await call(api.DELETE(`${CREDENTIALS_PATH}/{registry}`, { params: { path: { nodeId, registry } } }));
    notifySuccess(`Deleted the credentials for ${registry}.`);
    await queryClient.invalidateQueries({ queryKey: [...nodeKey(nodeId), 'registry-credentials'] });
  };
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Pulls from a registry listed here sign in with its stored user name and password.
      </Text>
      {storeButton && <Group>{storeButton}</Group>}
      <ServerList<Credential>
        label="Registry credentials"
        queryKey={[...nodeKey(nodeId), 'registry-credentials']}
        fetchPage={(query) => call(api.GET(CREDENTIALS_PATH, { params: { path: { nodeId }, query } }))}
        columns={[
          { header: 'Registry', cell: (credential) => credential.registry },
          { header: 'User name', cell: (credential) => credential.username },
          { header: 'Updated', cell: (credential) => <RelativeTime value={credential.updatedAt} /> },
          ...(mayManage
            ? [
                {
                  header: 'Actions',
                  cell: (credential: Credential) => (
                    <Group gap={6}>
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Replace the credentials for ${credential.registry}`}
                        onClick={() => setEditing(credential)}
                      >
                        Replace
                      </Button>
                      <ConfirmButton
                        size="xs"
                        label="Delete"
                        aria-label={`Delete the credentials for ${credential.registry}`}
                        title={`Delete the credentials for ${credential.registry}?`}
                        message="Pulls from this registry then go without credentials unless a pull brings its own."
                        confirmLabel="Delete credentials"
                        onConfirm={() => remove(credential)}
                      />
                    </Group>
                  ),
                },
              ]
            : []),
        ]}
        rowKey={(credential) => credential.registry}
        empty={{
          title: 'No registry credentials stored',
          description: 'Store a registry’s user name and password so pulls from it sign in.',
          action: storeButton,
        }}
      />
      {editing && (
        <SaveCredentialsDialog nodeId={nodeId} editing={editing} onClose={() => setEditing(undefined)} />
      )}
    </Stack>
  );
}
