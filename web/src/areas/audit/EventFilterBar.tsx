import { Button, Group, Select, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { EventFilters } from './event-filters';

/** The event filters: who, which action (or prefix), which target, the outcome, a time range. */
export function EventFilterBar({
  filters,
  onFilter,
}: {
  filters: EventFilters;
  onFilter: (filters: EventFilters) => void;
}) {
  const form = useForm<EventFilters>({ initialValues: filters });
  const grow = { flex: '1 1 180px' };
  return (
    <form onSubmit={form.onSubmit(onFilter)} aria-label="Filter events">
      <Group align="flex-end" gap="sm">
        <TextInput
          label="Actor"
          description="Email or user id"
          style={grow}
          {...form.getInputProps('actor')}
        />
        <TextInput
          label="Action"
          description="Exact, or a prefix: users.*"
          style={grow}
          {...form.getInputProps('action')}
        />
        <TextInput
          label="Target type"
          description="e.g. group"
          style={grow}
          {...form.getInputProps('targetType')}
        />
        <TextInput label="Target id" description="Its id" style={grow} {...form.getInputProps('targetId')} />
        <Select
          label="Outcome"
          description="Success or failure"
          data={[
            { value: '', label: 'Any outcome' },
            { value: 'success', label: 'Success' },
            { value: 'failure', label: 'Failure' },
          ]}
          allowDeselect={false}
          style={grow}
          {...form.getInputProps('outcome')}
        />
        <TextInput
          type="datetime-local"
          label="From"
          description="Your time zone"
          style={grow}
          {...form.getInputProps('from')}
        />
        <TextInput
          type="datetime-local"
          label="To"
          description="Your time zone"
          style={grow}
          {...form.getInputProps('to')}
        />
        <Button type="submit">Filter</Button>
      </Group>
    </form>
  );
}
