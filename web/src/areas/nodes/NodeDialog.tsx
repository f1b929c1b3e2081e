import { Modal, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { NODES_KEY, type StorageNode } from './queries';

/** Adds a storage node, or (given one) renames it or moves its root. */
export function NodeDialog({ node, onClose }: { node?: StorageNode; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: node?.name ?? '', rootPath: node?.rootPath ?? '' },
    submit: (values) => {
      if (!node) return call(api.POST('/api/nodes', { body: values }));
      const changes = {
        ...(values.name !== node.name ? { name: values.name } : {}),
        ...(values.rootPath !== node.rootPath ? { rootPath: values.rootPath } : {}),
      };
      return call(api.PATCH('/api/nodes/{id}', { params: { path: { id: node.id } }, body: changes }));
    },
    onDone: async ({ data }) => {
      notifySuccess(node ? `Saved ${data.name}.` : `Added the node ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: NODES_KEY });
    },
  });
  return (
    <Modal opened onClose={onClose} title={node ? `Edit ${node.name}` : 'Add a node'}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <TextInput
            label="Root directory"
            description="An absolute directory on the gateway's host that exists and the gateway may write to"
            placeholder="/srv/uploads"
            {...form.getInputProps('rootPath')}
          />
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
