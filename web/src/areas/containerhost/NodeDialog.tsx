import { Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { CONTAINERHOST_KEY, type EngineNode } from './queries';

/** The write-only PEM fields, in the order the form shows them. */
const SECRET_FIELDS = [
  ['tlsCa', 'TLS CA certificate (PEM)'],
  ['tlsCert', 'TLS client certificate (PEM)'],
  ['tlsKey', 'TLS client key (PEM)'],
  ['sshPrivateKey', 'SSH private key (PEM)'],
] as const;

/** Empty text means "leave as it is" when editing (secrets are never shown), "none" when adding. */
const secretOrAbsent = (text: string) => (text.trim() ? text : undefined);

/** Adds an engine node, or edits one (its TLS material and SSH key replaced only when typed again). */
export function NodeDialog({
  opened,
  onClose,
  node,
}: {
  opened: boolean;
  onClose: () => void;
  node?: EngineNode;
}) {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: {
      name: node?.name ?? '',
      endpoint: node?.endpoint ?? '',
      helperImage: node?.helperImage ?? '',
      tlsCa: '',
      tlsCert: '',
      tlsKey: '',
      sshPrivateKey: '',
    },
    reasonFields: { NODE_NAME_TAKEN: 'name' },
    submit: (values) => {
      const body = {
        name: values.name,
        endpoint: values.endpoint,
        helperImage: values.helperImage.trim() || null,
        tlsCa: secretOrAbsent(values.tlsCa),
        tlsCert: secretOrAbsent(values.tlsCert),
        tlsKey: secretOrAbsent(values.tlsKey),
        sshPrivateKey: secretOrAbsent(values.sshPrivateKey),
      };
      return node
        ? call(
            api.PATCH('/api/containerhost/nodes/{nodeId}', { params: { path: { nodeId: node.id } }, body }),
          )
        : call(api.POST('/api/containerhost/nodes', { body }));
    },
    onDone: async ({ data }) => {
      notifySuccess(node ? `Saved ${data.name}.` : `Added ${data.name}.`);
      if (!node) form.reset();
      onClose();
      await queryClient.invalidateQueries({ queryKey: CONTAINERHOST_KEY });
    },
  });
  const keep = node
    ? 'Leave empty to keep what is stored (a new endpoint removes it unless you enter it again)'
    : undefined;
  return (
    <Modal opened={opened} onClose={onClose} title={node ? `Edit ${node.name}` : 'Add a node'} size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <TextInput
            label="Endpoint"
            description="unix:///run/podman/podman.sock, tcp://host:2376 or ssh://user@host"
            {...form.getInputProps('endpoint')}
          />
          <TextInput
            label="Helper image"
            description="Image for volume file helpers; empty for the gateway's default"
            {...form.getInputProps('helperImage')}
          />
          {SECRET_FIELDS.map(([field, label]) => (
            <Textarea
              key={field}
              label={label}
              description={keep}
              autosize
              minRows={2}
              maxRows={6}
              {...form.getInputProps(field)}
            />
          ))}
          <FormActions
            submitLabel={node ? 'Save node' : 'Add node'}
            submitting={submitting}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
