import { Anchor, Breadcrumbs, Button, FileInput, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Answer } from '../../api/types';
import type { UploadProgress as Sent } from '../../api/upload';
import { FormActions, FormBanner, InlineForm, useApiForm } from '../../components/api-form';
import { ConfirmButton } from '../../components/ConfirmButton';
import { type Column, DataTable } from '../../components/DataTable';
import { formatBytes } from '../../components/format';
import { notifySuccess } from '../../components/notify';
import { QueryView } from '../../components/QueryView';
import { RelativeTime } from '../../components/RelativeTime';
import { UploadProgress } from '../../components/UploadProgress';

type Listing = Answer<'/api/containerhost/nodes/{nodeId}/containers/{containerId}/files', 'get'>['data'];
type Entry = Listing['entries'][number];

/** Where files are browsed (a container's filesystem, a volume): how to list, download, and change them. */
export interface FileSource {
  /** The listings' place in the query cache; a directory's path is appended. */
  key: QueryKey;
  list: (dir: string) => Promise<{ data: Listing }>;
  downloadUrl: (path: string) => string;
  /** Writes a picked file (absent for those who may only read). */
  upload?: (path: string, file: File, onProgress: (sent: Sent) => void) => Promise<unknown>;
  /** Moves or renames a file (absent where the API cannot). */
  move?: (fromPath: string, toPath: string) => Promise<unknown>;
  /** Deletes a file, a link, or a directory with everything in it (absent where the API cannot). */
  remove?: (path: string, directory: boolean) => Promise<unknown>;
  /** Creates a directory (absent where the API cannot). */
  mkdir?: (path: string) => Promise<unknown>;
}

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

function UploadForm({ source, dir }: { source: FileSource; dir: string }) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<Sent | undefined>();
  const upload = source.upload!;
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { file: null as File | null },
    validate: { file: (file) => (file ? null : 'Choose a file') },
    submit: ({ file }) => upload(joinPath(dir, file!.name), file!, setProgress),
    onDone: async (_, { file }) => {
      notifySuccess(`Uploaded ${file!.name} to ${dir}.`);
      form.reset();
      setProgress(undefined);
      await queryClient.invalidateQueries({ queryKey: source.key });
    },
  });
  return (
    <Stack gap="xs">
      <InlineForm onSubmit={onSubmit} banner={banner} submitting={submitting} submitLabel="Upload">
        <FileInput
          label={`Upload a file to ${dir}`}
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the file' }}
          {...form.getInputProps('file')}
        />
      </InlineForm>
      {progress && form.values.file && <UploadProgress name={form.values.file.name} progress={progress} />}
    </Stack>
  );
}

function NewDirectoryForm({ source, dir }: { source: FileSource; dir: string }) {
  const queryClient = useQueryClient();
  const mkdir = source.mkdir!;
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: '' },
    validate: { name: (name) => (name && !name.includes('/') ? null : 'A name, without /') },
    reasonFields: { PATH_EXISTS: 'name' },
    submit: ({ name }) => mkdir(joinPath(dir, name)),
    onDone: async (_, { name }) => {
      notifySuccess(`Created the directory ${joinPath(dir, name)}.`);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: source.key });
    },
  });
  return (
    <InlineForm onSubmit={onSubmit} banner={banner} submitting={submitting} submitLabel="Create directory">
      <TextInput label={`New directory in ${dir}`} {...form.getInputProps('name')} />
    </InlineForm>
  );
}

function MoveDialog({ source, path, onClose }: { source: FileSource; path: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const move = source.move!;
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { toPath: path },
    validate: { toPath: (value) => (value.startsWith('/') ? null : 'An absolute path, starting with /') },
    submit: ({ toPath }) => move(path, toPath),
    onDone: async (_, { toPath }) => {
      notifySuccess(`Moved ${path} to ${toPath}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: source.key });
    },
  });
  return (
    <Modal opened onClose={onClose} title={`Move ${path}`}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="New path" data-autofocus {...form.getInputProps('toPath')} />
          <FormActions onCancel={onClose} submitting={submitting} submitLabel="Move" />
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Browse directories and download files wherever `source` reads them; upload into a directory, create
 * one, move and delete files where the source can.
 */
export function FileBrowser({ source }: { source: FileSource }) {
  const queryClient = useQueryClient();
  const [dir, setDir] = useState('/');
  const [moving, setMoving] = useState<string | undefined>();
  const listing = useQuery({ queryKey: [...source.key, dir], queryFn: () => source.list(dir) });
  const remove = async (entry: Entry) => {
    const path = joinPath(dir, entry.name);
    await source.remove!(path, entry.type === 'directory');
    notifySuccess(`Deleted ${path}.`);
    await queryClient.invalidateQueries({ queryKey: source.key });
  };
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
            href={source.downloadUrl(joinPath(dir, entry.name))}
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
    { header: 'Modified', cell: (entry) => <RelativeTime value={entry.mtime} /> },
  ];
  if (source.move || source.remove) {
    columns.push({
      header: 'Actions',
      cell: (entry) => (
        <Group gap={6} wrap="nowrap">
          {source.move && (
            <Button
              size="xs"
              variant="default"
              aria-label={`Move ${entry.name}`}
              onClick={() => setMoving(joinPath(dir, entry.name))}
            >
              Move
            </Button>
          )}
          {source.remove && (
            <ConfirmButton
              size="xs"
              label="Delete"
              aria-label={`Delete ${entry.name}`}
              title={`Delete ${joinPath(dir, entry.name)}?`}
              message={
                entry.type === 'directory'
                  ? 'The directory is deleted with everything in it.'
                  : 'The file is deleted from the container.'
              }
              confirmLabel="Delete"
              onConfirm={() => remove(entry)}
            />
          )}
        </Group>
      ),
    });
  }
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
      {source.upload && <UploadForm source={source} dir={dir} />}
      {source.mkdir && <NewDirectoryForm source={source} dir={dir} />}
      {moving && <MoveDialog source={source} path={moving} onClose={() => setMoving(undefined)} />}
    </Stack>
  );
}
