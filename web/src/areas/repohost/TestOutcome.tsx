import { Badge, Group, Stack, Text } from '@mantine/core';
import { RelativeTime } from '../../components/RelativeTime';
import type { Connector } from './queries';

/** The last test of a saved connector: passed, or failed with the reason and explanation. */
export function TestOutcome({
  connector,
}: {
  connector: Pick<Connector, 'lastTestOk' | 'lastTestedAt' | 'lastTestError'>;
}) {
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="wrap">
        {connector.lastTestOk ? (
          <Badge color="green">Test passed</Badge>
        ) : (
          <Badge color="red">Test failed</Badge>
        )}
        <Text size="sm" c="dimmed">
          <RelativeTime value={connector.lastTestedAt} />
        </Text>
      </Group>
      {connector.lastTestError && (
        <Text size="sm">
          <code>{connector.lastTestError.reason}</code>: {connector.lastTestError.explanation}
        </Text>
      )}
    </Stack>
  );
}
