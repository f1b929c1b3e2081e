import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { notifyError, notifySuccess } from '../../components/notify';
import { ServerList } from '../../components/ServerList';
import { DestinationDialog } from './DestinationDialog';
import { AUDIT_KEY, DESTINATIONS_KEY, type Destination, kindLabel } from './queries';

const HEALTH_COLOURS: Record<string, string> = { healthy: 'green', degraded: 'yellow', down: 'red' };

function Health({ destination }: { destination: Destination }) {
  const { status, circuit, lastError } = destination.health;
  return (
    <Stack gap={2}>
      <Group gap={6}>
        <Badge color={HEALTH_COLOURS[status] ?? 'gray'} variant="light">
          {status}
        </Badge>
        <Badge color={circuit === 'closed' ? 'gray' : 'red'} variant="outline">
          Circuit {circuit.replace('_', '-')}
        </Badge>
      </Group>
      {lastError && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {lastError}
        </Text>
      )}
    </Stack>
  );
}

function Backlog({ destination }: { destination: Destination }) {
  const { queued, delivering, retrying, failed, paused } = destination.health.backlog;
  return (
    <Text size="sm">
      {queued + delivering} waiting, {retrying} retrying, {failed} failed
      {paused > 0 ? `, ${paused} paused` : ''}
    </Text>
  );
}

/** The SIEM destinations with their health, circuit and backlog; create, edit, test, delete. */
export function DestinationsPanel() {
  const queryClient = useQueryClient();
  // `null`: creating a destination; a destination: editing it.
  const [editing, setEditing] = useState<Destination | null | undefined>();
  const test = async (destination: Destination) => {
    try {
      const { data } = await call(
        api.POST('/api/audit/siem/destinations/{id}/test', { params: { path: { id: destination.id } } }),
      );
      if (data.ok) notifySuccess(`Test event delivered to ${destination.name} in ${data.durationMs} ms.`);
      else
        notifications.show({
          color: 'red',
          title: `Test to ${destination.name} failed`,
          message: data.error ?? `HTTP ${data.httpStatus}`,
          autoClose: 8000,
        });
    } catch (error) {
      notifyError(error);
    }
  };
  const remove = async (destination: Destination) => {
    const { data } = await call(
      api.DELETE('/api/audit/siem/destinations/{id}', { params: { path: { id: destination.id } } }),
    );
    notifySuccess(`Deleted ${destination.name}; ${data.discardedDeliveries} open deliveries discarded.`);
    await queryClient.invalidateQueries({ queryKey: AUDIT_KEY });
  };
  const columns: Column<Destination>[] = [
    {
      header: 'Destination',
      cell: (destination) => (
        <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          <Text fw={500}>{destination.name}</Text>
          <Text size="sm" c="dimmed">
            {kindLabel(destination.kind)}: {destination.url ?? `${destination.host}:${destination.port}`}
          </Text>
        </div>
      ),
    },
    { header: 'Health', cell: (destination) => <Health destination={destination} /> },
    { header: 'Backlog', cell: (destination) => <Backlog destination={destination} /> },
    {
      header: 'Actions',
      cell: (destination) => (
        <Group gap={6}>
          <Button
            size="xs"
            variant="light"
            aria-label={`Test send to ${destination.name}`}
            onClick={() => void test(destination)}
          >
            Test send
          </Button>
          <Button
            size="xs"
            variant="default"
            aria-label={`Edit ${destination.name}`}
            onClick={() => setEditing(destination)}
          >
            Edit
          </Button>
          <ConfirmButton
            size="xs"
            label="Delete"
            aria-label={`Delete ${destination.name}`}
            title={`Delete ${destination.name}?`}
            message="Its open deliveries are discarded; events stay in the trail and the delivery records stay listable."
            confirmLabel="Delete"
            onConfirm={() => remove(destination)}
          />
        </Group>
      ),
    },
  ];
  return (
    <Stack>
      <Group justify="flex-end">
        <Button onClick={() => setEditing(null)}>Create destination</Button>
      </Group>
      <ServerList
        label="SIEM destinations"
        queryKey={DESTINATIONS_KEY}
        fetchPage={(query) => call(api.GET('/api/audit/siem/destinations', { params: { query } }))}
        columns={columns}
        rowKey={(destination) => destination.id}
        empty={{
          title: 'No SIEM destinations',
          description:
            'Create a destination (webhook, Splunk HEC or syslog) to keep a copy of the trail outside the gateway.',
          action: <Button onClick={() => setEditing(null)}>Create destination</Button>,
        }}
      />
      {editing !== undefined && (
        <DestinationDialog destination={editing ?? undefined} onClose={() => setEditing(undefined)} />
      )}
    </Stack>
  );
}
