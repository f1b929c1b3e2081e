import { Badge, Button, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Section } from '../../components/Section';
import { LOGGING_KEY } from './queries';
import type { SearchQuery } from './record-filters';

/** A facet's value as text: strings as they are, numbers, booleans and objects as JSON. */
export const facetText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Counts per value of `field` (level, service, or a record field); choosing a value searches for it. */
function Facet({
  environmentId,
  field,
  title,
  query,
  onChoose,
}: {
  environmentId: string;
  field: string;
  title: string;
  query: SearchQuery;
  onChoose: (value: string) => void;
}) {
  const facet = useQuery({
    queryKey: [...LOGGING_KEY, 'facets', environmentId, field, query],
    queryFn: () =>
      call(
        api.GET('/api/logging/environments/{id}/facets', {
          params: { path: { id: environmentId }, query: { ...query, field } },
        }),
      ),
  });
  const values = facet.data?.data.values ?? [];
  let counts = (
    <Stack gap={2}>
      {values.map(({ value, count }) => (
        <Group key={facetText(value)} justify="space-between" wrap="nowrap">
          <UnstyledButton onClick={() => onChoose(facetText(value))} style={{ minWidth: 0 }}>
            <Text size="sm" truncate td="underline">
              {facetText(value)}
            </Text>
          </UnstyledButton>
          <Badge variant="light" aria-label={`${count} records`}>
            {count}
          </Badge>
        </Group>
      ))}
    </Stack>
  );
  if (facet.error) counts = <ErrorNotice error={facet.error} />;
  else if (facet.data && values.length === 0)
    counts = (
      <Text size="sm" c="dimmed">
        None in this range
      </Text>
    );
  return <Section title={title}>{counts}</Section>;
}

/** Counts per value of a record field the user names; choosing a value adds it as a field filter. */
function FieldFacet({
  environmentId,
  query,
  onChoose,
}: {
  environmentId: string;
  query: SearchQuery;
  onChoose: (field: string, value: string) => void;
}) {
  const [typed, setTyped] = useState('');
  const [field, setField] = useState('');
  return (
    <Stack gap="xs">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setField(typed.trim());
        }}
      >
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <TextInput
            label="Count by field"
            placeholder="e.g. route"
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit" variant="default">
            Count
          </Button>
        </Group>
      </form>
      {field && (
        <Facet
          environmentId={environmentId}
          field={field}
          title={`Field ${field}`}
          query={query}
          onChoose={(value) => onChoose(field, value)}
        />
      )}
    </Stack>
  );
}

/** The counts beside the records: per level, per service, and per value of a chosen field. */
export function RecordFacets({
  environmentId,
  query,
  onLevel,
  onService,
  onField,
}: {
  environmentId: string;
  query: SearchQuery;
  onLevel: (level: string) => void;
  onService: (service: string) => void;
  onField: (field: string, value: string) => void;
}) {
  return (
    <Stack>
      <Facet environmentId={environmentId} field="level" title="Levels" query={query} onChoose={onLevel} />
      <Facet
        environmentId={environmentId}
        field="service"
        title="Services"
        query={query}
        onChoose={onService}
      />
      <FieldFacet environmentId={environmentId} query={query} onChoose={onField} />
    </Stack>
  );
}
