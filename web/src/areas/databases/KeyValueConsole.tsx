import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useRef, useState } from 'react';
import { api, call } from '../../api/client';
import { ApiError } from '../../api/errors';
import { CommandOutcome, type CommandRun } from './CommandOutcome';
import { AT_DRAFT, historyEntries, stepHistory } from './command-history';
import { type Database, historyKey, useCommandHistory } from './queries';

// The results of this visit kept on screen; the history on the server keeps more.
const RUNS_SHOWN = 50;

/**
 * The key-value console: one command at a time, read like redis-cli reads a line. ↑ and ↓ walk
 * through the user's own history (from the gateway, so it follows them between browsers).
 */
export function KeyValueConsole({ database }: { database: Database }) {
  const queryClient = useQueryClient();
  const history = useCommandHistory(database.id);
  const [text, setText] = useState('');
  const [cursor, setCursor] = useState(AT_DRAFT);
  const [runs, setRuns] = useState<CommandRun[]>([]);
  const [running, setRunning] = useState(false);
  const nextId = useRef(0);
  const entries = historyEntries((history.data?.data ?? []).map((entry) => entry.command));

  const run = async () => {
    const command = text.trim();
    if (!command || running) return;
    setRunning(true);
    const done: CommandRun = { id: nextId.current++, command };
    try {
      const { data } = await call(
        api.POST('/api/databases/{id}/keyvalue/command', {
          params: { path: { id: database.id } },
          body: { command },
        }),
      );
      done.reply = data;
    } catch (error) {
      done.error = error;
    }
    setRuns((previous) => [done, ...previous].slice(0, RUNS_SHOWN));
    // A line the gateway could not read stays in the box to be fixed; anything else was run (or
    // refused) and is in the history, one ↑ away.
    const unreadable = done.error instanceof ApiError && done.error.issues.length > 0;
    if (!unreadable) setText('');
    setCursor(AT_DRAFT);
    setRunning(false);
    await queryClient.invalidateQueries({ queryKey: historyKey(database.id) });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void run();
      return;
    }
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    const step = stepHistory(entries, cursor, text, event.key === 'ArrowUp' ? 'older' : 'newer');
    if (!step) return;
    event.preventDefault();
    setCursor(step.cursor);
    setText(step.text);
  };

  return (
    <Stack gap="sm">
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          label="Command"
          description={
            'One command, quoted like redis-cli (SET greeting "hello world"); ↑ and ↓ recall earlier ones.'
          }
          placeholder="GET key"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          autoComplete="off"
          spellCheck={false}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setCursor(AT_DRAFT);
          }}
          onKeyDown={onKeyDown}
          style={{ flex: 1, minWidth: 0 }}
        />
        <Button onClick={() => void run()} loading={running}>
          Run
        </Button>
      </Group>
      <Stack gap="xs" role="log" aria-label="Command results">
        {runs.length === 0 ? (
          <Text size="sm" c="dimmed">
            Results appear here, newest first. Try PING, or INFO server.
          </Text>
        ) : (
          runs.map((done) => <CommandOutcome key={done.id} run={done} />)
        )}
      </Stack>
    </Stack>
  );
}
