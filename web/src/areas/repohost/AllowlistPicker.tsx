import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { entryKey } from './allowlist';
import type { AllowlistEntry } from './queries';

/**
 * Which of the groups and projects the token sees the connector may use; takes the form's input
 * props (`value`, `onChange`, `error`) as given.
 */
export function AllowlistPicker({
  options,
  ...inputProps
}: Omit<MultiSelectProps, 'data' | 'label'> & { options: readonly AllowlistEntry[] }) {
  return (
    <MultiSelect
      label="Allowlist"
      placeholder="Search groups and projects"
      data={options.map((entry) => ({
        value: entryKey(entry),
        label: `${entry.fullPath} (${entry.entryType})`,
      }))}
      searchable
      clearable
      limit={50}
      nothingFoundMessage="No group or project matches"
      hidePickedOptions
      {...inputProps}
    />
  );
}
