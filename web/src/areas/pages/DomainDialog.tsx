import { Button, Code, Divider, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { InlineForm, useApiForm } from '../../components/api-form';
import { CopyableValue } from '../../components/CopyableValue';
import { type Fact, FactList } from '../../components/FactList';
import { notifyError, notifySuccess } from '../../components/notify';
import { DOMAIN_REASONS } from './AddDomainDialog';
import { CertificateChoice } from './CertificateChoice';
import { DomainStatus } from './DomainStatus';
import { type Domain, PAGES_KEY, type Project, useMayManagePages } from './queries';

type Method = 'dns' | 'http';

/** The two proofs of ownership, each with what to publish and a button to check it now. */
function Proofs({ project, domain, mayManage }: { project: Project; domain: Domain; mayManage: boolean }) {
  const queryClient = useQueryClient();
  const [checking, setChecking] = useState<Method | undefined>();
  const verify = async (method: Method) => {
    setChecking(method);
    try {
      const { data } = await call(
        api.POST('/api/pages/{projectId}/domains/{domainId}/verify', {
          params: { path: { projectId: project.id, domainId: domain.id }, query: { method } },
        }),
      );
      if (data.status === 'verified')
        notifySuccess(`${data.hostname} is verified: the site answers there now.`);
      await queryClient.invalidateQueries({ queryKey: PAGES_KEY });
    } catch (error) {
      notifyError(error);
    } finally {
      setChecking(undefined);
    }
  };
  const { verification } = domain;
  const proof = (method: Method, title: string, explanation: string, facts: Fact[]) => (
    <Stack gap="xs" component="section" aria-label={title}>
      <Group justify="space-between">
        <Title order={3} size="h5">
          {title}
        </Title>
        {mayManage && (
          <Button size="xs" variant="light" loading={checking === method} onClick={() => verify(method)}>
            {method === 'dns' ? 'Verify by DNS' : 'Verify by HTTP'}
          </Button>
        )}
      </Group>
      <Text size="sm">{explanation}</Text>
      <FactList facts={facts} />
    </Stack>
  );
  return (
    <>
      {proof('dns', 'Proof by DNS', 'Create this TXT record at your DNS host:', [
        {
          label: 'TXT record name',
          value: <CopyableValue value={verification.dnsName} label="TXT record name" />,
        },
        {
          label: 'TXT record value',
          value: <CopyableValue value={verification.dnsValue} label="TXT record value" />,
        },
      ])}
      <Divider />
      {proof(
        'http',
        'Proof by HTTP',
        'Or point the name at this gateway (it answers the proof itself), or serve this body at this URL on port 80:',
        [
          { label: 'URL', value: <CopyableValue value={verification.httpUrl} label="proof URL" /> },
          { label: 'Body', value: <CopyableValue value={verification.httpBody} label="proof body" /> },
        ],
      )}
    </>
  );
}

function CertificateForm({ project, domain }: { project: Project; domain: Domain }) {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { certificateId: domain.certificateId },
    reasonFields: DOMAIN_REASONS,
    submit: (body) =>
      call(
        api.PATCH('/api/pages/{projectId}/domains/{domainId}', {
          params: { path: { projectId: project.id, domainId: domain.id } },
          body,
        }),
      ),
    onDone: async ({ data }) => {
      notifySuccess(
        data.certificateId ? `${data.hostname} has its certificate.` : `${data.hostname} has no certificate.`,
      );
      await queryClient.invalidateQueries({ queryKey: PAGES_KEY });
    },
  });
  return (
    <InlineForm onSubmit={onSubmit} banner={banner} submitting={submitting} submitLabel="Save certificate">
      <CertificateChoice {...form.getInputProps('certificateId')} />
    </InlineForm>
  );
}

/** One custom domain: its status, how to prove ownership (checked on demand), its certificate. */
export function DomainDialog({
  project,
  domain: initial,
  onClose,
}: {
  project: Project;
  domain: Domain;
  onClose: () => void;
}) {
  const mayManage = useMayManagePages(project.id);
  // The dialog follows the domain as checks change it.
  const current = useQuery({
    queryKey: [...PAGES_KEY, 'domain', initial.id],
    queryFn: () =>
      call(
        api.GET('/api/pages/{projectId}/domains/{domainId}', {
          params: { path: { projectId: project.id, domainId: initial.id } },
        }),
      ),
    initialData: { data: initial },
  });
  const domain = current.data.data;
  return (
    <Modal opened onClose={onClose} title={domain.hostname} size="lg">
      <Stack>
        <Group justify="space-between" align="flex-start">
          <DomainStatus domain={domain} />
          {domain.status === 'verified' && (
            <Text size="sm">
              Serves the live deployment at <Code>{domain.url}</Code>
            </Text>
          )}
        </Group>
        <Proofs project={project} domain={domain} mayManage={mayManage} />
        {mayManage && (
          <>
            <Divider />
            <CertificateForm project={project} domain={domain} />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
