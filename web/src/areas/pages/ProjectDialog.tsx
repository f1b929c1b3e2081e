import { Checkbox, Modal, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { PAGES_KEY, type Project } from './queries';
import { slugFrom } from './slug';

/** Creates a project (the slug follows the name until it is edited), or edits one. */
export function ProjectDialog({
  opened,
  onClose,
  project,
}: {
  opened: boolean;
  onClose: () => void;
  project?: Project;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: {
      name: project?.name ?? '',
      slug: project?.slug ?? '',
      spaFallback: project?.spaFallback ?? false,
    },
    reasonFields: { SLUG_TAKEN: 'slug' },
    submit: (body) =>
      project
        ? call(api.PATCH('/api/pages/{projectId}', { params: { path: { projectId: project.id } }, body }))
        : call(api.POST('/api/pages', { body })),
    onDone: async ({ data }) => {
      notifySuccess(
        project ? `Saved ${data.name}.` : `Created ${data.name}; deploy an archive to put it live.`,
      );
      if (!project) form.reset();
      onClose();
      await queryClient.invalidateQueries({ queryKey: PAGES_KEY });
      if (!project) navigate(`/pages/${data.id}`);
    },
  });
  const nameProps = form.getInputProps('name');
  return (
    <Modal opened={opened} onClose={onClose} title={project ? `Edit ${project.name}` : 'Create a project'}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput
            label="Name"
            data-autofocus
            {...nameProps}
            onChange={(event) => {
              const name = event.currentTarget.value;
              // The slug follows the name while it is what the name suggested (or empty).
              if (!project && form.values.slug === slugFrom(form.values.name)) {
                form.setFieldValue('slug', slugFrom(name));
              }
              nameProps.onChange(event);
            }}
          />
          <TextInput
            label="Slug"
            description={
              project
                ? 'Changing it moves the site to /sites/<new slug>/; old links stop working'
                : 'The site lives at /sites/<slug>/: lowercase letters, digits and hyphens'
            }
            {...form.getInputProps('slug')}
          />
          <Checkbox
            label="Single-page app: serve /index.html for paths that match no file"
            {...form.getInputProps('spaFallback', { type: 'checkbox' })}
          />
          <FormActions
            submitLabel={project ? 'Save project' : 'Create project'}
            submitting={submitting}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
