import { Select, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { FilterKey } from './rule-form';

const FIRST_PAGE = { params: { query: { limit: 100 } } };

/** The records a filter names, by id: what its picker offers. */
const CHOICES: Partial<Record<FilterKey, () => Promise<{ data: { id: string; name: string }[] }>>> = {
  nodeId: () => call(api.GET('/api/containerhost/nodes', FIRST_PAGE)),
  destinationId: () => call(api.GET('/api/audit/siem/destinations', FIRST_PAGE)),
  certificateId: () => call(api.GET('/api/ssl-certificates', FIRST_PAGE)),
  connectorId: () => call(api.GET('/api/integrations/repohost/connectors', FIRST_PAGE)),
};

/**
 * A rule's filter: a picker by name for a filter naming a record, when I may list those records;
 * else (no access to the list, or a filter by text such as a container name) a text field for the id.
 */
export function FilterInput({
  filter,
  label,
  inputProps,
}: {
  filter: FilterKey;
  /** `SIEM destination`: the field says "id" only when it asks for one typed in. */
  label: string;
  inputProps: GetInputPropsReturnType;
}) {
  const list = CHOICES[filter];
  const choices = useQuery({
    queryKey: ['notifications', 'filter-choices', filter],
    queryFn: () => list!(),
    enabled: Boolean(list),
    retry: false,
    staleTime: 60_000,
  });
  const description = 'Only events about this one; leave empty for all';
  if (!list || !choices.data) {
    return <TextInput label={list ? `${label} id` : label} description={description} {...inputProps} />;
  }
  const value = typeof inputProps.value === 'string' ? inputProps.value : '';
  const data = choices.data.data.map((record) => ({ value: record.id, label: record.name }));
  // A rule kept from before may name a record that is gone: show its id rather than nothing.
  if (value && !data.some((choice) => choice.value === value)) data.push({ value, label: value });
  return (
    <Select
      label={label}
      description={description}
      placeholder="Any"
      data={data}
      searchable
      clearable
      {...inputProps}
      onChange={(next) => inputProps.onChange(next ?? '')}
    />
  );
}
