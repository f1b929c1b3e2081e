import { Code, List, Table, Text } from '@mantine/core';
import { type ReplyNode, scalarText } from './reply-node';

/** One value of a reply: scalars as redis-cli prints them, lists numbered, hashes as a table. */
export function ReplyView({ node, nested = false }: { node: ReplyNode; nested?: boolean }) {
  switch (node.kind) {
    case 'string':
      if (nested)
        return (
          <Text size="sm" ff="monospace" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {node.text}
          </Text>
        );
      return (
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {node.text}
        </Code>
      );
    case 'list':
      if (node.items.length === 0) return <Text size="sm">(empty list)</Text>;
      return (
        <List type="ordered" size="sm" spacing={4} withPadding>
          {node.items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders
            <List.Item key={index}>
              <ReplyView node={item} nested />
            </List.Item>
          ))}
        </List>
      );
    case 'map':
      if (node.entries.length === 0) return <Text size="sm">(empty hash)</Text>;
      return (
        <Table withTableBorder withColumnBorders aria-label="Hash fields" layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Value</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {node.entries.map(([field, value]) => (
              <Table.Tr key={field}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{field}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <ReplyView node={value} nested />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      );
    default:
      return (
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {scalarText(node)}
        </Text>
      );
  }
}
