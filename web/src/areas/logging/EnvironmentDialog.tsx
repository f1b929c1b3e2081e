import {
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Body } from '../../api/types';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { type Environment, LOGGING_KEY, useSchemaChoices } from './queries';

type Ingest = NonNullable<Body<'/api/logging/environments', 'post'>['ingest']>;
const NO_SCHEMA = 'none';

const INGEST_LIMITS: { key: keyof Ingest; label: string; description: string }[] = [
  { key: 'maxBodyBytes', label: 'Largest body (bytes)', description: 'After gzip; 1 KiB to 64 MiB' },
  { key: 'maxRecords', label: 'Most records per request', description: '1 to 100,000' },
  { key: 'recordsPerSecond', label: 'Records per second', description: 'Per ingest token' },
  { key: 'bytesPerSecond', label: 'Bytes per second', description: 'Per ingest token' },
  { key: 'burstSeconds', label: 'Burst (seconds)', description: 'Seconds of the rate sent at once' },
];

/** Only the limits someone typed: the gateway keeps (or defaults) the others. */
function ingestSent(values: Record<keyof Ingest, number | string>): Ingest | undefined {
  const entries = INGEST_LIMITS.flatMap(({ key }) =>
    typeof values[key] === 'number' ? [[key, values[key]] as const] : [],
  );
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/**
 * Creates an environment (in the folder chosen in the tree), or changes one's settings: schema,
 * retention, what happens to records that break the schema, and its ingest limits.
 */
export function EnvironmentDialog({
  environment,
  folderId,
  onClose,
}: {
  environment?: Environment;
  folderId?: string | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const schemas = useSchemaChoices();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: {
      name: environment?.name ?? '',
      description: environment?.description ?? '',
      schemaId: environment?.schemaId ?? NO_SCHEMA,
      retentionDays: environment?.retentionDays ?? (30 as number | string),
      onSchemaViolation: environment?.onSchemaViolation ?? 'reject',
      ...(Object.fromEntries(INGEST_LIMITS.map(({ key }) => [key, environment?.ingest[key] ?? ''])) as Record<
        keyof Ingest,
        number | string
      >),
    },
    submit: (values) => {
      const ingest = ingestSent(values);
      const body = {
        name: values.name,
        description: values.description,
        schemaId: values.schemaId === NO_SCHEMA ? null : values.schemaId,
        ...(typeof values.retentionDays === 'number' ? { retentionDays: values.retentionDays } : {}),
        onSchemaViolation: values.onSchemaViolation,
        ...(ingest ? { ingest } : {}),
      };
      return environment
        ? call(api.PUT('/api/logging/environments/{id}', { params: { path: { id: environment.id } }, body }))
        : call(api.POST('/api/logging/environments', { body: { ...body, folderId: folderId ?? null } }));
    },
    onDone: async ({ data }) => {
      notifySuccess(environment ? `Saved ${data.name}.` : `Created the environment ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: LOGGING_KEY });
    },
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={environment ? `Settings of ${environment.name}` : 'Create an environment'}
      size="lg"
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <Select
            label="Schema"
            description={
              schemas.data && schemas.data.total > schemas.data.items.length
                ? `Records are checked against it. The first ${schemas.data.items.length} of ${schemas.data.total} schemas are offered.`
                : 'Records are checked against it'
            }
            data={[
              { value: NO_SCHEMA, label: 'No schema' },
              ...(schemas.data?.items ?? []).map((schema) => ({ value: schema.id, label: schema.name })),
            ]}
            allowDeselect={false}
            {...form.getInputProps('schemaId')}
          />
          <NumberInput
            label="Retention (days)"
            min={1}
            max={3650}
            allowDecimal={false}
            {...form.getInputProps('retentionDays')}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="violation-label">
              A record that breaks the schema
            </Text>
            <SegmentedControl
              aria-labelledby="violation-label"
              data={[
                { value: 'reject', label: 'Reject it' },
                { value: 'keep', label: 'Keep it, flagged' },
              ]}
              {...form.getInputProps('onSchemaViolation')}
            />
          </Stack>
          <Text size="sm" fw={500}>
            Ingest limits (empty: the default)
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {INGEST_LIMITS.map(({ key, label, description }) => (
              <NumberInput
                key={key}
                label={label}
                description={description}
                min={1}
                allowDecimal={false}
                {...form.getInputProps(key)}
              />
            ))}
          </SimpleGrid>
          <FormActions
            submitLabel={environment ? 'Save settings' : 'Create environment'}
            submitting={submitting}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
