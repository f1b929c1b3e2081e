import { Badge, Box, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { InlineForm, useApiForm } from '../../components/api-form';
import { parseCommand } from './container-form';

type ExecResult = Answer<'/api/containerhost/nodes/{nodeId}/containers/{containerId}/exec', 'post'>['data'];

function Output({ label, text }: { label: string; text: string }) {
  if (!text) return null;
  return (
    <Box
      component="pre"
      aria-label={label}
      tabIndex={0}
      m={0}
      p="sm"
      style={{
        maxHeight: 320,
        overflow: 'auto',
        whiteSpace: 'pre-wrap',
        overflowWrap: 'anywhere',
        fontSize: 12,
        background: 'var(--mantine-color-default-hover)',
        borderRadius: 'var(--mantine-radius-sm)',
      }}
    >
      {text}
    </Box>
  );
}

/** Runs one command in the running container to completion and shows its exit code and output. */
export function ExecPanel({ nodeId, containerId }: { nodeId: string; containerId: string }) {
  const [result, setResult] = useState<ExecResult | undefined>();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { cmd: '', shell: true },
    validate: { cmd: (text) => (parseCommand(text).length ? null : 'Type a command') },
    submit: ({ cmd, shell }) =>
      call(
        api.POST('/api/containerhost/nodes/{nodeId}/containers/{containerId}/exec', {
          params: { path: { nodeId, containerId } },
          body: { cmd: shell ? ['sh', '-c', cmd] : parseCommand(cmd), timeoutSeconds: 60 },
        }),
      ),
    onDone: ({ data }) => setResult(data),
  });
  return (
    <Stack gap="sm">
      <InlineForm onSubmit={onSubmit} banner={banner} submitting={submitting} submitLabel="Run">
        <TextInput label="Command" {...form.getInputProps('cmd')} />
      </InlineForm>
      <Checkbox
        label="Run through sh -c (pipes, variables); otherwise the words run as they are"
        {...form.getInputProps('shell', { type: 'checkbox' })}
      />
      {result && (
        <Stack gap="xs" aria-live="polite">
          <Group gap="xs">
            <Badge color={result.exitCode === 0 ? 'green' : 'red'} variant="light">
              {result.timedOut ? 'timed out' : `exit code ${result.exitCode}`}
            </Badge>
            <Text size="xs" c="dimmed">
              {result.durationMs} ms{result.truncated ? ' · output cut at 1 MiB' : ''}
            </Text>
          </Group>
          <Output label="Standard output" text={result.stdout} />
          <Output label="Standard error" text={result.stderr} />
        </Stack>
      )}
    </Stack>
  );
}
