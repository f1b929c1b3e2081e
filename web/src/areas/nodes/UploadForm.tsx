import { Button, Checkbox, FileInput, Group, Stack, TextInput } from '@mantine/core';
import { FormBanner, useApiForm } from '../../components/api-form';

/** Picks a local file and where it goes on the node; the upload itself runs in the page. */
export function UploadForm({
  onStart,
  busy,
}: {
  onStart: (file: File, target: { path: string; overwrite: boolean }) => Promise<void>;
  busy: boolean;
}) {
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { file: null as File | null, path: '', overwrite: false },
    validate: { file: (file) => (file ? null : 'Choose a file to upload') },
    submit: ({ file, path, overwrite }) => onStart(file!, { path: path || file!.name, overwrite }),
    onDone: (): void => form.reset(),
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <FormBanner message={banner} title="Not started" />
        <Group align="flex-start" grow preventGrowOverflow={false} wrap="wrap">
          <FileInput
            label="File"
            placeholder="Choose a file"
            // Mantine draws this placeholder as text, which must meet the contrast of any text.
            styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
            clearable
            miw={200}
            {...form.getInputProps('file')}
            onChange={(file) => {
              form.setFieldValue('file', file);
              if (file && !form.values.path) form.setFieldValue('path', file.name);
            }}
          />
          <TextInput
            label="Path on the node"
            description="Relative to the node's root; folders are created"
            miw={200}
            {...form.getInputProps('path')}
          />
        </Group>
        <Group justify="space-between">
          <Checkbox
            label="Replace an existing file"
            {...form.getInputProps('overwrite', { type: 'checkbox' })}
          />
          <Button type="submit" loading={submitting} disabled={busy}>
            Upload
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
