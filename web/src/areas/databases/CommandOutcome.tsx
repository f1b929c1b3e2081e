import { Alert, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { ApiError } from '../../api/errors';
import type { CommandReply } from './queries';
import { ReplyView } from './ReplyView';
import { replyNode } from './reply-node';

/** A command the user ran, with the gateway's reply or its refusal. */
export interface CommandRun {
  id: number;
  command: string;
  reply?: CommandReply;
  error?: unknown;
}

/** `details.serverError` of a refusal: the key-value server's own words (WRONGTYPE …, unknown command …). */
function serverError(error: ApiError): string | undefined {
  const details = error.details as { serverError?: unknown } | null | undefined;
  return typeof details?.serverError === 'string' ? details.serverError : undefined;
}

/** A refusal shown verbatim: the message, the reason code, the explanation, the server's own error. */
function Refusal({ error }: { error: unknown }) {
  if (!(error instanceof ApiError)) {
    return (
      <Alert color="red" title="Not run">
        {String(error)}
      </Alert>
    );
  }
  const fromServer = serverError(error);
  return (
    <Alert color="red" title={error.message}>
      <Stack gap={4}>
        {error.reason && (
          <Text size="sm">
            Reason: <code>{error.reason}</code>
          </Text>
        )}
        {error.explanation && <Text size="sm">{error.explanation}</Text>}
        {fromServer && (
          <Text size="sm" ff="monospace">
            {fromServer}
          </Text>
        )}
        {error.requiredScope && <Text size="sm">It needs the scope {error.requiredScope}.</Text>}
        {error.issues.map((issue) => (
          <Text size="sm" key={issue.message}>
            {issue.message}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

export function CommandOutcome({ run }: { run: CommandRun }) {
  const { reply } = run;
  return (
    <Paper withBorder p="sm" component="article" aria-label={`Result of ${run.command}`}>
      <Stack gap="xs">
        <Group gap="xs" justify="space-between" wrap="wrap">
          <Text ff="monospace" size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            &gt; {run.command}
          </Text>
          {reply && (
            <Group gap={4}>
              <Badge variant="light" tt="none">
                {reply.class}
              </Badge>
              <Badge variant="light" color="gray" tt="none">
                {reply.type}
              </Badge>
              <Badge variant="light" color="gray" tt="none">
                {reply.durationMs.toFixed(2)} ms
              </Badge>
            </Group>
          )}
        </Group>
        {reply?.truncated && (
          <Alert color="yellow" title="Reply truncated">
            The reply was larger than the gateway returns, so it was cut: long strings are shortened and lists
            and hashes stop early. Use SCAN, HSCAN or GETRANGE to read it in parts.
          </Alert>
        )}
        {reply ? <ReplyView node={replyNode(reply.result, reply.type)} /> : <Refusal error={run.error} />}
      </Stack>
    </Paper>
  );
}
