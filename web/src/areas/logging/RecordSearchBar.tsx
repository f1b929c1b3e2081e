import { Button, Group, MultiSelect, Select, TagsInput, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { LEVELS, RANGES, type RangeKey, type RecordFilters } from './record-filters';
import { fromLocalInput, toLocalInput } from './record-time';

const RANGE_CHOICES = [
  ...RANGES.map(({ value, label }) => ({ value, label })),
  { value: 'custom', label: 'Custom range' },
];

/**
 * A `datetime-local` input (with seconds, in the reader's time zone) of an ISO instant. It keeps
 * what is typed, which is no instant until complete; an instant set from elsewhere replaces it.
 */
function InstantInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (iso: string) => void;
}) {
  const [text, setText] = useState(() => toLocalInput(value));
  const shown = toLocalInput(value);
  if (value && text !== shown && fromLocalInput(text) !== value) setText(shown);
  return (
    <TextInput
      type="datetime-local"
      step={1}
      label={label}
      description="Your time zone"
      style={{ flex: '1 1 200px' }}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        onChange(fromLocalInput(event.currentTarget.value));
      }}
    />
  );
}

/**
 * The search bar: words of the message, time range (a preset, or from and to), levels, service,
 * and field values required or excluded. It shows `filters` and reports each edit; whether the
 * records follow yet is `pending` (with the `problem` when they cannot).
 */
export function RecordSearchBar({
  filters,
  onEdit,
  onSearch,
  pending,
  problem,
}: {
  filters: RecordFilters;
  onEdit: (filters: RecordFilters) => void;
  onSearch: (filters: RecordFilters) => void;
  pending: boolean;
  problem: string | undefined;
}) {
  const edit = (change: Partial<RecordFilters>) => onEdit({ ...filters, ...change });
  const chooseRange = (range: RangeKey) => {
    if (range !== 'custom') return edit({ range, from: '', to: '' });
    // A custom range starts as the preset it replaces, so From and To begin filled in.
    const span = RANGES.find((each) => each.value === filters.range)?.ms ?? RANGES[2].ms;
    const now = Date.now();
    const second = (at: number) => new Date(Math.floor(at / 1000) * 1000).toISOString();
    edit({ range, from: second(now - span), to: second(now + 1000) });
  };
  let status = 'Showing these filters';
  if (problem) status = `Not applied: ${problem}`;
  else if (pending) status = 'Not applied yet: searching once you stop typing';
  return (
    <form
      aria-label="Search records"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(filters);
      }}
    >
      <Group align="flex-end" gap="sm">
        <TextInput
          type="search"
          label="Search messages"
          description='Words, "a phrase", or, -word'
          style={{ flex: '2 1 220px' }}
          value={filters.q}
          onChange={(event) => edit({ q: event.currentTarget.value })}
        />
        <Select
          label="Time range"
          data={RANGE_CHOICES}
          allowDeselect={false}
          style={{ flex: '1 1 150px' }}
          value={filters.range}
          onChange={(value) => value && chooseRange(value as RangeKey)}
        />
        {filters.range === 'custom' && (
          <>
            <InstantInput label="From" value={filters.from} onChange={(from) => edit({ from })} />
            <InstantInput label="To" value={filters.to} onChange={(to) => edit({ to })} />
          </>
        )}
        <MultiSelect
          label="Levels"
          placeholder="Any level"
          data={[...LEVELS]}
          clearable
          style={{ flex: '1 1 180px' }}
          value={filters.levels}
          onChange={(levels) => edit({ levels })}
        />
        <TextInput
          label="Service"
          style={{ flex: '1 1 140px' }}
          value={filters.service}
          onChange={(event) => edit({ service: event.currentTarget.value })}
        />
        <TagsInput
          label="Field filters"
          placeholder="name=value, Enter"
          style={{ flex: '2 1 220px' }}
          value={filters.fields}
          onChange={(fields) => edit({ fields })}
        />
        <TagsInput
          label="Excluded field values"
          placeholder="name=value, Enter"
          style={{ flex: '2 1 220px' }}
          value={filters.excluded}
          onChange={(excluded) => edit({ excluded })}
        />
        <Button type="submit">Search</Button>
      </Group>
      <Text size="xs" c={problem ? 'red' : 'dimmed'} role="status" mt={4}>
        {status}
      </Text>
    </form>
  );
}
