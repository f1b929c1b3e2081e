import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { notifySuccess } from '../../components/notify';
import { ServerList } from '../../components/ServerList';
import { ChannelDialog } from './ChannelDialog';
import { CHANNELS_KEY, type Channel, NOTIFICATIONS_KEY } from './queries';
import { SendTest } from './SendTest';

/** Where a channel sends, in words: the webhook's URL, the chat's host, the mail's recipients. */
function destination(channel: Channel): string {
  if (channel.kind === 'email') return `${channel.to.join(', ')} via ${channel.smtp?.host ?? '?'}`;
  return channel.url ?? channel.urlOrigin ?? '';
}

/** The channels: search, create, send a test, edit, delete. */
export function ChannelsPanel({ canManage }: { canManage: boolean }) {
  const queryClient = useQueryClient();
  // `null`: creating a channel; a channel: editing it.
  const [dialog, setDialog] = useState<Channel | null | undefined>();
  const remove = async (channel: Channel) => {
    await call(api.DELETE('/api/notifications/channels/{id}', { params: { path: { id: channel.id } } }));
    notifySuccess(`Deleted the channel ${channel.name}.`);
    await queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
  };
  const columns: Column<Channel>[] = [
    {
      header: 'Channel',
      cell: (channel) => (
        <div>
          <Text fw={500}>{channel.name}</Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {destination(channel)}
          </Text>
        </div>
      ),
    },
    {
      header: 'Kind',
      cell: (channel) => (
        <Group gap={4}>
          <Badge variant="light" tt="none">
            {channel.kind}
          </Badge>
          {channel.hasSecret && (
            <Badge variant="light" color="gray" tt="none">
              signed
            </Badge>
          )}
          {!channel.enabled && <Badge color="gray">Disabled</Badge>}
        </Group>
      ),
    },
  ];
  if (canManage)
    columns.push(
      { header: 'Test', cell: (channel) => <SendTest channel={channel} /> },
      {
        header: 'Actions',
        cell: (channel) => (
          <Group gap="xs">
            <Button
              size="xs"
              variant="default"
              aria-label={`Edit ${channel.name}`}
              onClick={() => setDialog(channel)}
            >
              Edit
            </Button>
            <ConfirmButton
              size="xs"
              label="Delete"
              aria-label={`Delete ${channel.name}`}
              title={`Delete the channel ${channel.name}?`}
              message="Its deliveries go with it. A channel that rules still send to cannot be deleted: change those rules first."
              confirmLabel="Delete"
              onConfirm={() => remove(channel)}
            />
          </Group>
        ),
      },
    );
  const createButton = canManage ? (
    <Button onClick={() => setDialog(null)}>Create channel</Button>
  ) : undefined;
  return (
    <Stack>
      {createButton && <Group justify="flex-end">{createButton}</Group>}
      <ServerList
        label="Channels"
        queryKey={[...CHANNELS_KEY, 'list']}
        fetchPage={(query) => call(api.GET('/api/notifications/channels', { params: { query } }))}
        columns={columns}
        rowKey={(channel) => channel.id}
        search="Search channels"
        empty={{
          title: 'No channels yet',
          description:
            'A channel is where notifications go: a signed webhook, a Slack-compatible chat, or email.',
          action: createButton,
        }}
      />
      {dialog !== undefined && (
        <ChannelDialog channel={dialog ?? undefined} onClose={() => setDialog(undefined)} />
      )}
    </Stack>
  );
}
