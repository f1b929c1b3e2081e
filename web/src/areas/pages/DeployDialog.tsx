import {
  Anchor,
  Button,
  Checkbox,
  FileInput,
  Group,
  List,
  Modal,
  NumberInput,
  Stack,
  Text,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { percentSent, type UploadProgress as Sent, uploadWithProgress } from '../../api/upload';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { formatBytes } from '../../components/format';
import { notifySuccess } from '../../components/notify';
import { UploadProgress } from '../../components/UploadProgress';
import { type Deployment, fileCount, PAGES_KEY, type Project, shortId } from './queries';
import { siteRuleProblems } from './site-rule-problems';

const ARCHIVES = '.tar.gz,.tgz,.tar,.zip,application/gzip,application/x-tar,application/zip';

/** The refusals that are about the archive's contents, shown under the archive field. */
const ARCHIVE_REASONS = Object.fromEntries(
  [
    'ARCHIVE_PATH_UNSAFE',
    'ARCHIVE_LINK_OUTSIDE',
    'ARCHIVE_LINK_UNRESOLVED',
    'ARCHIVE_ENTRY_UNSUPPORTED',
    'SITE_RULES_INVALID',
  ].map((reason) => [reason, 'archive']),
);

function Deployed({ deployment, onDone }: { deployment: Deployment; onDone: () => void }) {
  return (
    <Stack gap="xs">
      <Text size="sm">
        Deployment {shortId(deployment.id)}: {fileCount(deployment.fileCount)},{' '}
        {formatBytes(deployment.sizeBytes)}.{' '}
        {deployment.production
          ? 'It is live now.'
          : 'It is not live: promote it from the deployments when it should be.'}
      </Text>
      <Group justify="flex-end">
        <Anchor href={deployment.previewUrl} target="_blank" rel="noopener noreferrer">
          Open preview
        </Anchor>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

/**
 * Uploads an archive of the site (.tar.gz, .tar or .zip) as a new deployment, with a progress bar
 * while it is sent; live at once unless told otherwise.
 */
export function DeployDialog({
  opened,
  onClose,
  project,
}: {
  opened: boolean;
  onClose: () => void;
  project: Project;
}) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<Sent | undefined>();
  const [deployed, setDeployed] = useState<Deployment | undefined>();
  const [problems, setProblems] = useState<string[]>([]);
  // Closing the dialog while the archive is still going out stops sending it.
  const sending = useRef<AbortController | undefined>(undefined);
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { archive: null as File | null, promote: true, stripComponents: 0 as number | string },
    validate: { archive: (file) => (file ? null : 'Choose the archive of the site') },
    reasonFields: ARCHIVE_REASONS,
    submit: async ({ archive, promote, stripComponents }) => {
      setProblems([]);
      setProgress({ loaded: 0, total: archive!.size });
      sending.current = new AbortController();
      try {
        return await uploadWithProgress('post', '/api/pages/{projectId}/deployments', {
          path: { projectId: project.id },
          query: { promote, ...(typeof stripComponents === 'number' ? { stripComponents } : {}) },
          body: archive!,
          onProgress: setProgress,
          signal: sending.current.signal,
        });
      } catch (error) {
        setProgress(undefined);
        setProblems(siteRuleProblems(error));
        throw error;
      }
    },
    onDone: async ({ data }) => {
      setDeployed(data);
      notifySuccess(`Deployed ${project.name}.`);
      await queryClient.invalidateQueries({ queryKey: PAGES_KEY });
    },
  });
  const finish = () => {
    sending.current?.abort();
    form.reset();
    setProgress(undefined);
    setDeployed(undefined);
    setProblems([]);
    onClose();
  };
  const archive = form.values.archive;
  let caption: string | undefined;
  if (deployed) caption = 'deployed';
  else if (progress && percentSent(progress) === 100)
    caption = 'sent; the gateway is unpacking and storing the files';
  return (
    <Modal opened={opened} onClose={finish} title={`Deploy ${project.name}`} size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} title="Not deployed" />
          {!deployed && (
            <>
              <FileInput
                label="Archive"
                description="The site as .tar.gz, .tar or .zip, index.html at its root (or below folders you strip)"
                placeholder="Choose an archive…"
                accept={ARCHIVES}
                clearable
                clearButtonProps={{ 'aria-label': 'Clear the archive' }}
                disabled={submitting}
                {...form.getInputProps('archive')}
              />
              {problems.length > 0 && (
                <List size="sm" c="red" aria-label="Problems in _redirects and _headers">
                  {problems.map((problem) => (
                    <List.Item key={problem}>{problem}</List.Item>
                  ))}
                </List>
              )}
              <NumberInput
                label="Folders to strip"
                description="Leading folders dropped from every path, like tar --strip-components (1 for an archive of dist/)"
                min={0}
                max={32}
                allowDecimal={false}
                disabled={submitting}
                {...form.getInputProps('stripComponents')}
              />
              <Checkbox
                label="Make it live at once"
                description="Otherwise it is stored with a preview link, and promoted later"
                disabled={submitting}
                {...form.getInputProps('promote', { type: 'checkbox' })}
              />
            </>
          )}
          {progress && archive && (
            <UploadProgress name={archive.name} progress={progress} caption={caption} />
          )}
          {deployed ? (
            <Deployed deployment={deployed} onDone={finish} />
          ) : (
            <FormActions submitLabel="Deploy" submitting={submitting} onCancel={finish} />
          )}
        </Stack>
      </form>
    </Modal>
  );
}
