import { Modal, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { CertificateChoice } from './CertificateChoice';
import { type Domain, PAGES_KEY, type Project } from './queries';

export const DOMAIN_REASONS = {
  DOMAIN_TAKEN: 'hostname',
  HOSTNAME_RESERVED: 'hostname',
  CERTIFICATE_NOT_FOUND: 'certificateId',
  CERTIFICATE_MISMATCH: 'certificateId',
};

/** Adds a custom domain (pending until its ownership is proven), then hands it on for the proof. */
export function AddDomainDialog({
  opened,
  onClose,
  project,
  onAdded,
}: {
  opened: boolean;
  onClose: () => void;
  project: Project;
  /** Called with the new domain, whose proof instructions come next. */
  onAdded: (domain: Domain) => void;
}) {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { hostname: '', certificateId: null as string | null },
    reasonFields: DOMAIN_REASONS,
    submit: (body) =>
      call(api.POST('/api/pages/{projectId}/domains', { params: { path: { projectId: project.id } }, body })),
    onDone: async ({ data }) => {
      notifySuccess(`Added ${data.hostname}; prove that it is yours to put it live.`);
      form.reset();
      onAdded(data);
      await queryClient.invalidateQueries({ queryKey: PAGES_KEY });
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Add a custom domain">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput
            label="Host name"
            description="e.g. docs.example.com; point its DNS at the gateway to serve the site there"
            data-autofocus
            {...form.getInputProps('hostname')}
          />
          <CertificateChoice {...form.getInputProps('certificateId')} />
          <FormActions submitLabel="Add domain" submitting={submitting} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
