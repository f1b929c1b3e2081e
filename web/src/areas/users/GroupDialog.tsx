import { Modal, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { useConsoleAreas } from '../area';
import { ADMIN_KEY, type Group, useGroups, useResourceChoices } from './queries';
import { ScopesInput } from './ScopesInput';
import { scopeSuggestions } from './scope-suggestions';

const SCOPES_HELP =
  'e.g. logging:view, databases:*, * for everything, or containerhost:view:<node id> for one resource; manage includes view';

/** Creates a group, or (given one) replaces its scopes; a member's access changes at once. */
export function GroupDialog({ group, onClose }: { group?: Group; onClose: () => void }) {
  const queryClient = useQueryClient();
  const groups = useGroups();
  const areas = useConsoleAreas();
  const resources = useResourceChoices();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: group?.name ?? '', scopes: group?.scopes ?? [] },
    submit: ({ name, scopes }) =>
      group
        ? call(
            api.PATCH('/api/admin/groups/{id}/scopes', {
              params: { path: { id: group.id } },
              body: { scopes },
            }),
          )
        : call(api.POST('/api/admin/groups', { body: { name, scopes } })),
    onDone: async ({ data }) => {
      notifySuccess(group ? `Saved the scopes of ${data.name}.` : `Created the group ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    },
  });
  return (
    <Modal opened onClose={onClose} title={group ? `Scopes of ${group.name}` : 'Create a group'}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          {!group && <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />}
          <ScopesInput
            label="Scopes"
            description={SCOPES_HELP}
            resources={resources}
            data={scopeSuggestions(areas, groups.data?.data ?? [], resources)}
            clearable
            {...form.getInputProps('scopes')}
          />
          <FormActions
            submitLabel={group ? 'Save scopes' : 'Create group'}
            submitting={submitting}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
