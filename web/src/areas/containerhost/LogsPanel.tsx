import { Box, Button, Group, Stack, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, call } from '../../api/client';
import { ApiError, describeError } from '../../api/errors';
import { readEventStream } from '../../api/event-stream';
import type { Answer } from '../../api/types';
import { uploadUrl } from '../../api/upload';
import { ErrorNotice } from '../../components/ErrorNotice';
import { containerKey } from './queries';

type LogLine = Answer<
  '/api/containerhost/nodes/{nodeId}/containers/{containerId}/logs',
  'get'
>['data'][number];

const TAIL = 200;
/** Lines kept on screen while following; older ones scroll away. */
const KEPT = 2000;
const LOGS_PATH = '/api/containerhost/nodes/{nodeId}/containers/{containerId}/logs';

/** The last lines while following (`follow=true`, Server-Sent Events), until the container stops. */
function useFollowedLogs(path: { nodeId: string; containerId: string }, following: boolean) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [status, setStatus] = useState<string | undefined>();
  const { nodeId, containerId } = path;
  useEffect(() => {
    if (!following) return;
    const aborter = new AbortController();
    setLines([]);
    setStatus('Following…');
    readEventStream(
      uploadUrl(LOGS_PATH, { nodeId, containerId }, { follow: true, tail: TAIL }),
      { signal: aborter.signal },
      ({ event, data }) => {
        if (event === 'log') setLines((kept) => [...kept, data as LogLine].slice(-KEPT));
        else if (event === 'end') setStatus('The stream ended: the container stopped.');
        else if (event === 'error') setStatus(`The stream failed: ${describeError(new ApiError(0, data))}`);
      },
    )
      .then(() => {
        if (!aborter.signal.aborted) setStatus((now) => (now === 'Following…' ? 'The stream ended.' : now));
      })
      .catch((error: unknown) => setStatus(`The stream failed: ${describeError(error)}`));
    return () => aborter.abort();
  }, [nodeId, containerId, following]);
  return { lines, status };
}

/** A container's logs: the last lines, or following them live; stderr lines marked. */
export function LogsPanel({ nodeId, containerId }: { nodeId: string; containerId: string }) {
  const [following, setFollowing] = useState(false);
  const path = { nodeId, containerId };
  const recent = useQuery({
    queryKey: [...containerKey(nodeId, containerId), 'logs'],
    // The route answers JSON, or an event stream when asked: this call asks for JSON.
    queryFn: async () =>
      (await call(api.GET(LOGS_PATH, { params: { path, query: { tail: TAIL } } }))) as Answer<
        typeof LOGS_PATH,
        'get'
      >,
    enabled: !following,
  });
  const followed = useFollowedLogs(path, following);
  const lines = following ? followed.lines : (recent.data?.data ?? []);
  const view = useRef<HTMLPreElement>(null);
  // Keep the newest line in sight as lines arrive.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the lines change
  useEffect(() => {
    view.current?.scrollTo({ top: view.current.scrollHeight });
  }, [lines]);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Switch
          label="Follow"
          checked={following}
          onChange={(event) => setFollowing(event.currentTarget.checked)}
        />
        {!following && (
          <Button
            size="xs"
            variant="default"
            onClick={() => void recent.refetch()}
            loading={recent.isFetching}
          >
            Refresh logs
          </Button>
        )}
      </Group>
      {following && followed.status && (
        <Text size="sm" c="dimmed" role="status">
          {followed.status}
        </Text>
      )}
      {!following && recent.error ? (
        <ErrorNotice error={recent.error} onRetry={() => void recent.refetch()} />
      ) : (
        <Box
          component="pre"
          ref={view}
          role="log"
          aria-label={`Logs of ${containerId}`}
          tabIndex={0}
          m={0}
          p="sm"
          style={{
            maxHeight: 420,
            overflow: 'auto',
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            fontSize: 12,
            background: 'var(--mantine-color-default-hover)',
            borderRadius: 'var(--mantine-radius-sm)',
          }}
        >
          {lines.length === 0
            ? 'No log lines yet.'
            : lines.map((line, index) => (
                <div
                  // biome-ignore lint/suspicious/noArrayIndexKey: log lines have no identity; their order never changes
                  key={index}
                  style={line.stream === 'stderr' ? { color: 'var(--mantine-color-red-text)' } : undefined}
                >
                  {line.timestamp ? `${line.timestamp} ` : ''}
                  {line.line}
                </div>
              ))}
        </Box>
      )}
      {!following && recent.data?.truncated && (
        <Text size="sm" c="dimmed">
          Only the first 8 MiB of the logs are shown.
        </Text>
      )}
    </Stack>
  );
}
