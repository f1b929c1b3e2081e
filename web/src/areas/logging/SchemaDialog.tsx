import { Button, Checkbox, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { LOGGING_KEY, type Schema, type SchemaField } from './queries';

const FIELD_TYPES: SchemaField['type'][] = ['string', 'number', 'boolean', 'timestamp', 'object'];

/** Creates a schema (in the folder chosen in the tree) or edits one: its description and fields. */
export function SchemaDialog({
  schema,
  folderId,
  onClose,
}: {
  schema?: Schema;
  folderId?: string | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: {
      name: schema?.name ?? '',
      description: schema?.description ?? '',
      fields: schema?.fields ?? ([{ name: '', type: 'string', required: false }] as SchemaField[]),
    },
    submit: (body) =>
      schema
        ? call(api.PUT('/api/logging/schemas/{id}', { params: { path: { id: schema.id } }, body }))
        : call(api.POST('/api/logging/schemas', { body: { ...body, folderId: folderId ?? null } })),
    onDone: async ({ data }) => {
      notifySuccess(schema ? `Saved ${data.name}.` : `Created the schema ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: LOGGING_KEY });
    },
  });
  const fieldsError = form.errors.fields;
  return (
    <Modal opened onClose={onClose} title={schema ? `Edit ${schema.name}` : 'Create a schema'} size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <Text size="sm" fw={500}>
            Fields
          </Text>
          {form.values.fields.map((field, index) => (
            // Rows are edited in place and removed by position; the index is their identity here.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <Group key={index} align="flex-end" gap="xs">
              <TextInput
                label={`Field ${index + 1} name`}
                style={{ flex: 2, minWidth: 120 }}
                {...form.getInputProps(`fields.${index}.name`)}
              />
              <Select
                label={`Field ${index + 1} type`}
                data={FIELD_TYPES}
                allowDeselect={false}
                style={{ flex: 1, minWidth: 110 }}
                {...form.getInputProps(`fields.${index}.type`)}
              />
              <Checkbox
                label="Required"
                aria-label={`Field ${index + 1} required`}
                mb={8}
                {...form.getInputProps(`fields.${index}.required`, { type: 'checkbox' })}
              />
              <Button
                variant="subtle"
                color="red"
                size="xs"
                mb={4}
                aria-label={`Remove field ${index + 1}${field.name ? ` (${field.name})` : ''}`}
                onClick={() => form.removeListItem('fields', index)}
              >
                Remove
              </Button>
            </Group>
          ))}
          {typeof fieldsError === 'string' && (
            <Text size="sm" c="red" role="alert">
              {fieldsError}
            </Text>
          )}
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() => form.insertListItem('fields', { name: '', type: 'string', required: false })}
            >
              Add field
            </Button>
          </Group>
          <FormActions
            submitLabel={schema ? 'Save schema' : 'Create schema'}
            submitting={submitting}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
