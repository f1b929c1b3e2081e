import { Anchor, Breadcrumbs, Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { type UploadProgress as Sent, uploadUrl, uploadWithProgress } from '../../api/upload';
import { FormBanner, InlineForm, useApiForm } from '../../components/api-form';
import { type Column, DataTable } from '../../components/DataTable';
import { formatBytes, formatDateTime } from '../../components/format';
import { notifySuccess } from '../../components/notify';
import { QueryView } from '../../components/QueryView';
import { UploadProgress } from '../../components/UploadProgress';
import { containerKey, useMayManageContainers } from './queries';

const FILES_PATH = '/api/containerhost/nodes/{nodeId}/containers/{containerId}/files';
type Entry = Answer<typeof FILES_PATH, 'get'>['data']['entries'][number];

/** `/a/b` + `c` → `/a/b/c`; the root has no trailing slash to double. */
const joinPath = (dir: string, name: string) => `${dir === '/' ? '' : dir}/${name}`;

/** The directories from the root to `path`, each with the path that opens it. */
function crumbs(path: string): { name: string; path: string }[] {
  const parts = path.split('/').filter(Boolean);
  return [
    { name: '/', path: '/' },
    ...parts.map((name, at) => ({ name, path: `/${parts.slice(0, at + 1).join('/')}` })),
  ];
}

function UploadForm({ nodeId, containerId, dir }: { nodeId: string; containerId: string; dir: string }) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<Sent | undefined>();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { file: null as File | null },
    validate: { file: (file) => (file ? null : 'Choose a file') },
    submit: ({ file }) =>
      uploadWithProgress('put', `${FILES_PATH}/content`, {
        path: { nodeId, containerId },
        query: { path: joinPath(dir, file!.name) },
        body: file!,
        onProgress: setProgress,
      }),
    onDone: async (_, { file }) => {
      notifySuccess(`Uploaded ${file!.name} to ${dir}.`);
      form.reset();
      setProgress(undefined);
      await queryClient.invalidateQueries({ queryKey: [...containerKey(nodeId, containerId), 'files'] });
    },
  });
  return (
    <Stack gap="xs">
      <InlineForm onSubmit={onSubmit} banner={banner} submitting={submitting} submitLabel="Upload">
        <FileInput
          label={`Upload a file to ${dir}`}
          placeholder="Choose a file…"
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the file' }}
          {...form.getInputProps('file')}
        />
      </InlineForm>
      {progress && form.values.file && <UploadProgress name={form.values.file.name} progress={progress} />}
    </Stack>
  );
}

/** A container's files through the engine's archive API: browse directories, download files, upload into one. */
export function FilesPanel({ nodeId, containerId }: { nodeId: string; containerId: string }) {
  const mayManage = useMayManageContainers();
  const [dir, setDir] = useState('/');
  const listing = useQuery({
    queryKey: [...containerKey(nodeId, containerId), 'files', dir],
    queryFn: () =>
      call(api.GET(FILES_PATH, { params: { path: { nodeId, containerId }, query: { path: dir } } })),
  });
  const columns: Column<Entry>[] = [
    {
      header: 'Name',
      cell: (entry) =>
        entry.type === 'directory' ? (
          <Anchor component="button" type="button" onClick={() => setDir(joinPath(dir, entry.name))}>
            {entry.name}/
          </Anchor>
        ) : entry.type === 'file' ? (
          <Anchor
            href={uploadUrl(
              `${FILES_PATH}/content`,
              { nodeId, containerId },
              { path: joinPath(dir, entry.name) },
            )}
            download={entry.name}
            aria-label={`Download ${entry.name}`}
          >
            {entry.name}
          </Anchor>
        ) : (
          <Text size="sm">
            {entry.name}
            {entry.linkTarget ? ` → ${entry.linkTarget}` : ''}
          </Text>
        ),
    },
    { header: 'Size', cell: (entry) => (entry.type === 'file' ? formatBytes(entry.size) : '—') },
    { header: 'Mode', cell: (entry) => entry.mode },
    { header: 'Modified', cell: (entry) => formatDateTime(entry.mtime) },
  ];
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Breadcrumbs separator="/" aria-label="Directory">
          {crumbs(dir).map((crumb) => (
            <Anchor key={crumb.path} component="button" type="button" onClick={() => setDir(crumb.path)}>
              {crumb.name}
            </Anchor>
          ))}
        </Breadcrumbs>
        {dir !== '/' && (
          <Button size="xs" variant="default" onClick={() => setDir(crumbs(dir).at(-2)?.path ?? '/')}>
            Up one directory
          </Button>
        )}
      </Group>
      <QueryView query={listing}>
        {({ data }) =>
          data.entries.length === 0 ? (
            <Text c="dimmed">This directory is empty.</Text>
          ) : (
            <>
              <DataTable
                label={`Files in ${data.path}`}
                columns={columns}
                rows={data.entries}
                rowKey={(entry) => entry.name}
              />
              {data.truncated && (
                <FormBanner
                  title="Not everything is shown"
                  message="The directory is too large to list in full."
                />
              )}
            </>
          )
        }
      </QueryView>
      {mayManage && <UploadForm nodeId={nodeId} containerId={containerId} dir={dir} />}
    </Stack>
  );
}
