import { Button, Group, MultiSelect, Select, TagsInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { LEVELS, RANGES, type RecordFilters } from './record-filters';

/** The search bar: words of the message, time range, levels, service and field filters. */
export function RecordSearchBar({
  filters,
  onSearch,
}: {
  filters: RecordFilters;
  onSearch: (filters: RecordFilters) => void;
}) {
  const form = useForm<RecordFilters>({ initialValues: filters });
  return (
    <form onSubmit={form.onSubmit(onSearch)}>
      <Group align="flex-end" gap="sm">
        <TextInput
          type="search"
          label="Search messages"
          description='Words, "a phrase", or, -word'
          style={{ flex: '2 1 220px' }}
          {...form.getInputProps('q')}
        />
        <Select
          label="Time range"
          data={RANGES.map(({ value, label }) => ({ value, label }))}
          allowDeselect={false}
          style={{ flex: '1 1 150px' }}
          {...form.getInputProps('range')}
        />
        <MultiSelect
          label="Levels"
          placeholder="Any level"
          data={[...LEVELS]}
          clearable
          style={{ flex: '1 1 180px' }}
          {...form.getInputProps('levels')}
        />
        <TextInput label="Service" style={{ flex: '1 1 140px' }} {...form.getInputProps('service')} />
        <TagsInput
          label="Field filters"
          placeholder="name=value, Enter"
          style={{ flex: '2 1 220px' }}
          {...form.getInputProps('fields')}
        />
        <Button type="submit">Search</Button>
      </Group>
    </form>
  );
}
