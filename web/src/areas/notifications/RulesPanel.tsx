import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { notifySuccess } from '../../components/notify';
import { ServerList } from '../../components/ServerList';
import { NOTIFICATIONS_KEY, namesById, RULES_KEY, type Rule, useChannelChoices } from './queries';
import { RuleDialog } from './RuleDialog';

/** When a rule notifies, in words: its filters, thresholds and reminders. */
function when(rule: Rule): string {
  const parts = Object.entries(rule.filters).map(([key, value]) => `${key} = ${value}`);
  if (rule.withinDays) parts.push(`${rule.withinDays.join(', ')} days before`);
  if (rule.renotifyMinutes) parts.push(`reminds every ${rule.renotifyMinutes} min`);
  return parts.length > 0 ? parts.join('; ') : 'every time';
}

/** The alert rules: search, create, edit, delete. */
export function RulesPanel({ canManage }: { canManage: boolean }) {
  const queryClient = useQueryClient();
  const channelNames = namesById(useChannelChoices().data?.data);
  // `null`: creating a rule; a rule: editing it.
  const [dialog, setDialog] = useState<Rule | null | undefined>();
  const remove = async (rule: Rule) => {
    await call(api.DELETE('/api/notifications/rules/{id}', { params: { path: { id: rule.id } } }));
    notifySuccess(`Deleted the rule ${rule.name}.`);
    await queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
  };
  const columns: Column<Rule>[] = [
    {
      header: 'Rule',
      cell: (rule) => (
        <div>
          <Text fw={500}>{rule.name}</Text>
          <Text size="sm" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {rule.event}
          </Text>
        </div>
      ),
    },
    {
      header: 'Channels',
      cell: (rule) => rule.channelIds.map((id) => channelNames.get(id) ?? id).join(', '),
    },
    { header: 'When', cell: (rule) => when(rule) },
    {
      header: 'Status',
      cell: (rule) =>
        rule.enabled ? <Badge color="green">Enabled</Badge> : <Badge color="gray">Disabled</Badge>,
    },
  ];
  if (canManage)
    columns.push({
      header: 'Actions',
      cell: (rule) => (
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            aria-label={`Edit ${rule.name}`}
            onClick={() => setDialog(rule)}
          >
            Edit
          </Button>
          <ConfirmButton
            size="xs"
            label="Delete"
            aria-label={`Delete ${rule.name}`}
            title={`Delete the rule ${rule.name}?`}
            message="Nothing more is sent for it; deliveries already queued are still sent."
            confirmLabel="Delete"
            onConfirm={() => remove(rule)}
          />
        </Group>
      ),
    });
  const createButton = canManage ? <Button onClick={() => setDialog(null)}>Create rule</Button> : undefined;
  return (
    <Stack>
      {createButton && <Group justify="flex-end">{createButton}</Group>}
      <ServerList
        label="Rules"
        queryKey={[...RULES_KEY, 'list']}
        fetchPage={(query) => call(api.GET('/api/notifications/rules', { params: { query } }))}
        columns={columns}
        rowKey={(rule) => rule.id}
        search="Search rules"
        empty={{
          title: 'No rules yet',
          description:
            'A rule sends an event (a certificate about to expire, a health check going offline …) to channels.',
          action: createButton,
        }}
      />
      {dialog !== undefined && <RuleDialog rule={dialog ?? undefined} onClose={() => setDialog(undefined)} />}
    </Stack>
  );
}
