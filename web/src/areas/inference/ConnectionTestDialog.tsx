import { Alert, Badge, Group, Modal, Stack, Text } from '@mantine/core';
import { type Column, DataTable } from '../../components/DataTable';
import type { Connection, ConnectionTest } from './queries';

type Model = ConnectionTest['models'][number];

const modelColumns: Column<Model>[] = [
  { header: 'Model', cell: (model) => model.id },
  { header: 'Name', cell: (model) => model.name ?? '—' },
];

/** What a connection test found: the provider's answer and the models it lists. */
export function ConnectionTestDialog({
  connection,
  result,
  onClose,
}: {
  connection: Connection;
  result: ConnectionTest;
  onClose: () => void;
}) {
  return (
    <Modal opened onClose={onClose} title={`Models of ${connection.name}`} size="lg">
      <Stack>
        <Group gap="xs" role="status">
          {result.ok ? <Badge color="green">Test passed</Badge> : <Badge color="red">Test failed</Badge>}
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {result.url}
            {result.httpStatus !== null && ` answered ${result.httpStatus}`}
            {result.responseMs !== null && ` in ${result.responseMs} ms`}
          </Text>
        </Group>
        {result.error && (
          <Alert color="red" title="The provider did not list its models">
            {result.error}
          </Alert>
        )}
        {result.ok &&
          (result.models.length === 0 ? (
            <Text size="sm">The provider lists no model.</Text>
          ) : (
            <DataTable
              label="Models"
              columns={modelColumns}
              rows={result.models}
              rowKey={(model) => model.id}
            />
          ))}
      </Stack>
    </Modal>
  );
}
