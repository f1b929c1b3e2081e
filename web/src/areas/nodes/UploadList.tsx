import { Badge, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { formatBytes } from '../../components/format';
import { RelativeTime } from '../../components/RelativeTime';
import { ServerList } from '../../components/ServerList';
import { UploadProgress } from '../../components/UploadProgress';
import { type Upload, uploadsKey } from './queries';
import type { useNodeUpload } from './use-node-upload';

const STATUS_COLORS: Record<Upload['status'], string> = {
  open: 'blue',
  complete: 'green',
  failed: 'red',
  aborted: 'gray',
  expired: 'gray',
};

type Uploading = ReturnType<typeof useNodeUpload>;

/** One upload's actions: resume it with the same file (unless this page is sending it), cancel it. */
function UploadActions({ upload, uploading }: { upload: Upload; uploading: Uploading }) {
  if (upload.status !== 'open') return null;
  const sending = uploading.active?.session.id === upload.id && uploading.active.state === 'sending';
  return (
    <Group gap="xs">
      {!sending && (
        <FileButton onChange={(file) => file && void uploading.resume(upload, file)}>
          {(props) => (
            <Button size="xs" variant="default" aria-label={`Resume ${upload.path}`} {...props}>
              Resume
            </Button>
          )}
        </FileButton>
      )}
      <ConfirmButton
        size="xs"
        label="Cancel"
        aria-label={`Cancel ${upload.path}`}
        title={`Cancel the upload of ${upload.path}?`}
        message="The bytes received so far are removed from the node; the upload cannot be resumed."
        confirmLabel="Cancel upload"
        onConfirm={() => uploading.cancel(upload)}
      />
    </Group>
  );
}

/** A node's upload sessions, newest first, with live progress for the one this page is sending. */
export function UploadList({
  nodeId,
  uploading,
  canManage,
}: {
  nodeId: string;
  uploading: Uploading;
  canManage: boolean;
}) {
  // The page's own upload moves faster than the list is fetched: show its latest state.
  const live = (upload: Upload) =>
    uploading.active?.session.id === upload.id ? uploading.active.session : upload;
  const columns: Column<Upload>[] = [
    {
      header: 'File',
      cell: (upload) => (
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {upload.path}
        </Text>
      ),
    },
    {
      header: 'Status',
      cell: (upload) => (
        <Stack gap={2}>
          <Badge color={STATUS_COLORS[live(upload).status]} variant="light">
            {live(upload).status}
          </Badge>
          {upload.failureReason && <Text size="sm">{upload.failureReason}</Text>}
        </Stack>
      ),
    },
    {
      header: 'Progress',
      cell: (upload) => {
        const current = live(upload);
        if (current.status === 'complete') return formatBytes(current.totalBytes);
        return (
          <UploadProgress
            name={current.path}
            progress={{ loaded: current.receivedBytes, total: current.totalBytes }}
            inRow
            {...(current.status === 'open' ? {} : { color: 'gray' })}
          />
        );
      },
    },
    { header: 'Started', cell: (upload) => <RelativeTime value={upload.createdAt} /> },
  ];
  if (canManage)
    columns.push({
      header: 'Actions',
      cell: (upload) => <UploadActions upload={upload} uploading={uploading} />,
    });
  return (
    <ServerList
      label="Uploads"
      queryKey={uploadsKey(nodeId)}
      fetchPage={(query) =>
        call(api.GET('/api/nodes/{id}/files/uploads', { params: { path: { id: nodeId }, query } }))
      }
      columns={columns}
      rowKey={(upload) => upload.id}
      empty={{
        title: 'No uploads yet',
        description: canManage
          ? 'Choose a file above: it is sent in chunks, and an interrupted upload continues where it stopped.'
          : 'Files uploaded into this node are listed here.',
      }}
    />
  );
}
