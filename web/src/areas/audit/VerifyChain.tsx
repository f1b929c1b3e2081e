import { Alert, Button, Code, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { RelativeTime } from '../../components/RelativeTime';

/** Walks the whole hash chain on the gateway and says whether it is intact, or where it breaks. */
export function VerifyChain() {
  const verify = useMutation({ mutationFn: () => call(api.GET('/api/audit/verify')) });
  const result = verify.data?.data;
  return (
    <Stack gap="xs">
      <div>
        <Button variant="light" loading={verify.isPending} onClick={() => verify.mutate()}>
          Verify chain
        </Button>
      </div>
      {verify.error && (
        <Alert color="red" role="alert" title="Could not verify">
          {describeError(verify.error)}
        </Alert>
      )}
      {result?.valid && (
        <Alert color="green" role="status" title="The chain is intact">
          <Text size="sm">
            {result.checkedEvents} events checked at <RelativeTime value={result.verifiedAt} />; none was
            changed, re-linked or deleted.
          </Text>
          {result.headHash && (
            <Text size="sm">
              Head: event {result.headSeq}, hash{' '}
              <Code style={{ overflowWrap: 'anywhere' }}>{result.headHash}</Code>
            </Text>
          )}
        </Alert>
      )}
      {result && !result.valid && (
        <Alert color="red" role="alert" title="The chain is broken">
          <Text size="sm">
            {result.firstBrokenLink
              ? `At event ${result.firstBrokenLink.seq}: ${result.firstBrokenLink.explanation}`
              : 'The gateway found a broken link.'}
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
