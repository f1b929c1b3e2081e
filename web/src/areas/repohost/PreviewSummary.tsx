import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { CapabilityList } from './CapabilityList';
import type { Preview } from './queries';
import { TokenFacts } from './TokenFacts';

/** What a test found: who the token is, what it can do, how much it sees. */
export function PreviewSummary({ preview, title }: { preview: Preview; title: string }) {
  const groups = preview.allowlistEntries.filter((entry) => entry.entryType === 'group').length;
  const projects = preview.allowlistEntries.length - groups;
  return (
    <Paper withBorder p="sm" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={3} size="h5">
          {title}
        </Title>
        <TokenFacts facts={preview} />
        <CapabilityList capabilities={preview.capabilities} />
        <Text size="sm">
          The token sees {groups} {groups === 1 ? 'group' : 'groups'} and {projects}{' '}
          {projects === 1 ? 'project' : 'projects'}.
        </Text>
        {preview.truncated && (
          <Alert color="yellow" title="Not everything was listed">
            The token sees more groups or projects than the gateway lists in one test; entries past the limit
            can still be allowed through the API by their id and path.
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
