import { Badge, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { notifyError } from '../../components/notify';
import type { Channel } from './queries';

type TestResult = Answer<'/api/notifications/channels/{id}/test', 'post'>['data'];

/** Sends a test message through a channel now and shows whether it arrived (or why not). */
export function SendTest({ channel }: { channel: Channel }) {
  const [result, setResult] = useState<TestResult | undefined>();
  const [sending, setSending] = useState(false);
  const send = async () => {
    setSending(true);
    try {
      const { data } = await call(
        api.POST('/api/notifications/channels/{id}/test', { params: { path: { id: channel.id } } }),
      );
      setResult(data);
    } catch (error) {
      notifyError(error);
    } finally {
      setSending(false);
    }
  };
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size="xs"
        variant="default"
        loading={sending}
        aria-label={`Send test to ${channel.name}`}
        onClick={() => void send()}
      >
        Send test
      </Button>
      {result && (
        <Stack gap={2} role="status">
          {result.ok ? <Badge color="green">Test delivered</Badge> : <Badge color="red">Test failed</Badge>}
          {result.error && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {result.error}
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}
