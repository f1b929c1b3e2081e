import { Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { Column } from '../../components/DataTable';
import { notifySuccess } from '../../components/notify';
import { ServerList } from '../../components/ServerList';
import { AddDomainDialog } from './AddDomainDialog';
import { DomainDialog } from './DomainDialog';
import { DomainStatus } from './DomainStatus';
import { type Domain, PAGES_KEY, type Project, useMayManagePages } from './queries';

/** A project's custom domains: add one, prove it (instructions in its dialog), choose its certificate. */
export function DomainsPanel({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const mayManage = useMayManagePages(project.id);
  const [adding, add] = useDisclosure(false);
  const [open, setOpen] = useState<Domain | undefined>();
  const remove = async (domain: Domain) => {
    await call(
      api.DELETE('/api/pages/{projectId}/domains/{domainId}', {
        params: { path: { projectId: project.id, domainId: domain.id } },
      }),
    );
    notifySuccess(`Removed ${domain.hostname}.`);
    await queryClient.invalidateQueries({ queryKey: PAGES_KEY });
  };
  const columns: Column<Domain>[] = [
    { header: 'Host name', cell: (domain) => <Text fw={500}>{domain.hostname}</Text> },
    { header: 'Status', cell: (domain) => <DomainStatus domain={domain} /> },
    {
      header: 'HTTPS',
      cell: (domain) => (domain.certificateId ? 'Certificate chosen' : 'No certificate'),
    },
    {
      header: 'Actions',
      cell: (domain) => (
        <Group gap={6}>
          <Button
            size="xs"
            variant="default"
            onClick={() => setOpen(domain)}
            aria-label={`${mayManage ? 'Verify and configure' : 'Details of'} ${domain.hostname}`}
          >
            {mayManage ? 'Verify and configure' : 'Details'}
          </Button>
          {mayManage && (
            <ConfirmButton
              size="xs"
              label="Remove"
              aria-label={`Remove ${domain.hostname}`}
              title={`Remove ${domain.hostname}?`}
              message="The site stops answering at this name."
              confirmLabel="Remove"
              onConfirm={() => remove(domain)}
            />
          )}
        </Group>
      ),
    },
  ];
  const addButton = mayManage ? <Button onClick={add.open}>Add domain</Button> : undefined;
  return (
    <Stack>
      {addButton && <Group justify="flex-end">{addButton}</Group>}
      <ServerList
        label="Custom domains"
        queryKey={[...PAGES_KEY, 'domains', project.id]}
        fetchPage={(query) =>
          call(
            api.GET('/api/pages/{projectId}/domains', { params: { path: { projectId: project.id }, query } }),
          )
        }
        columns={columns}
        rowKey={(domain) => domain.id}
        empty={{
          title: 'No custom domains',
          description:
            'Add a name such as docs.example.com, prove it is yours with a DNS record or an HTTP token, and the site answers there too.',
          action: addButton,
        }}
      />
      {mayManage && (
        <AddDomainDialog
          opened={adding}
          onClose={add.close}
          project={project}
          onAdded={(domain) => {
            add.close();
            setOpen(domain);
          }}
        />
      )}
      {open && <DomainDialog project={project} domain={open} onClose={() => setOpen(undefined)} />}
    </Stack>
  );
}
