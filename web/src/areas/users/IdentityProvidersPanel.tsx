import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyableValue } from '../../components/CopyableValue';
import type { Column } from '../../components/DataTable';
import { notifySuccess } from '../../components/notify';
import { ServerList } from '../../components/ServerList';
import { IdentityProviderDialog } from './IdentityProviderDialog';
import type { IdentityProvider } from './identity-provider-form';
import { ADMIN_KEY } from './queries';

const PROVIDERS_KEY = ['admin', 'identity-providers'];

/** The one redirect URI every provider must allow, as the gateway states it. */
function RedirectUri({ value }: { value: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm">Register this redirect URI at the provider:</Text>
      <CopyableValue value={value} label="redirect URI" />
    </Stack>
  );
}

/** After adding a provider: the redirect URI to register there before anyone signs in. */
function AddedNotice({ provider, onClose }: { provider: IdentityProvider; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={`Added ${provider.name}`}>
      <Stack>
        <RedirectUri value={provider.redirectUri} />
        <Text size="sm" c="dimmed">
          {provider.enabled
            ? 'The sign-in page now offers it.'
            : 'It is not offered on the sign-in page until you turn it on.'}
        </Text>
        <Group justify="flex-end">
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Single sign-on: the OpenID Connect providers people may sign in with (add, edit, delete). */
export function IdentityProvidersPanel() {
  const queryClient = useQueryClient();
  // `null`: adding one; a provider: editing it.
  const [dialog, setDialog] = useState<IdentityProvider | null | undefined>();
  const [added, setAdded] = useState<IdentityProvider | undefined>();
  // Every provider answers the same redirect URI; the first one shows it above the list.
  const first = useQuery({
    queryKey: [...PROVIDERS_KEY, 'first'],
    queryFn: () => call(api.GET('/api/admin/identity-providers', { params: { query: { limit: 1 } } })),
  });
  const redirectUri = first.data?.data[0]?.redirectUri;
  const remove = async (provider: IdentityProvider) => {
    await call(api.DELETE('/api/admin/identity-providers/{id}', { params: { path: { id: provider.id } } }));
    notifySuccess(`Deleted ${provider.name}.`);
    await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
  };
  const add = <Button onClick={() => setDialog(null)}>Add identity provider</Button>;
  const columns: Column<IdentityProvider>[] = [
    {
      header: 'Provider',
      cell: (provider) => (
        <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          <Text fw={500}>{provider.name}</Text>
          <Text size="sm" c="dimmed">
            {provider.issuer}
          </Text>
        </div>
      ),
    },
    { header: 'Client ID', cell: (provider) => provider.clientId },
    {
      header: 'Accounts',
      cell: (provider) => (
        <Text size="sm">
          {provider.autoCreateUsers ? 'Created at first sign-in' : 'Existing accounts only'}
          {provider.defaultGroup ? `; default group ${provider.defaultGroup}` : ''}
        </Text>
      ),
    },
    {
      header: 'Status',
      cell: (provider) =>
        !provider.enabled ? (
          <Badge color="gray">Turned off</Badge>
        ) : provider.hasClientSecret ? (
          <Badge color="green">On the sign-in page</Badge>
        ) : (
          // A new issuer dropped the secret given for the old one: nobody signs in until one is set.
          <Badge color="orange">Needs its client secret</Badge>
        ),
    },
    {
      header: 'Actions',
      cell: (provider) => (
        <Group gap={6}>
          <Button
            size="xs"
            variant="default"
            aria-label={`Edit ${provider.name}`}
            onClick={() => setDialog(provider)}
          >
            Edit
          </Button>
          <ConfirmButton
            size="xs"
            label="Delete"
            aria-label={`Delete ${provider.name}`}
            title={`Delete ${provider.name}?`}
            message="Nobody can sign in through it any more. Accounts it created stay, with their passwords if they set one."
            confirmLabel="Delete"
            onConfirm={() => remove(provider)}
          />
        </Group>
      ),
    },
  ];
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div style={{ flex: '1 1 280px', minWidth: 0 }}>
          {redirectUri && <RedirectUri value={redirectUri} />}
        </div>
        {add}
      </Group>
      <ServerList
        label="Identity providers"
        queryKey={PROVIDERS_KEY}
        fetchPage={(query) => call(api.GET('/api/admin/identity-providers', { params: { query } }))}
        columns={columns}
        rowKey={(provider) => provider.id}
        search="Search identity providers"
        empty={{
          title: 'No identity providers yet',
          description:
            'Add an OpenID Connect provider (your company directory, Keycloak, Google…) so people sign in with it; the gateway then shows the redirect URI to register there.',
          action: add,
        }}
      />
      {dialog !== undefined && (
        <IdentityProviderDialog
          provider={dialog ?? undefined}
          onClose={() => setDialog(undefined)}
          onSaved={(saved) => {
            if (!dialog) setAdded(saved);
            setDialog(undefined);
          }}
        />
      )}
      {added && <AddedNotice provider={added} onClose={() => setAdded(undefined)} />}
    </Stack>
  );
}
