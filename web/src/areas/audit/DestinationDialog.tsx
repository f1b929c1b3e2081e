import {
  Modal,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { destinationChange, destinationValues, newDestination } from './destination-body';
import { AUDIT_KEY, type Destination, KIND_LABELS } from './queries';

/** Creates a SIEM destination, or edits one (its kind stays; an empty secret keeps the stored one). */
export function DestinationDialog({
  destination,
  onClose,
}: {
  destination?: Destination;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: destinationValues(destination),
    submit: (values) =>
      destination
        ? call(
            api.PATCH('/api/audit/siem/destinations/{id}', {
              params: { path: { id: destination.id } },
              body: destinationChange(values),
            }),
          )
        : call(api.POST('/api/audit/siem/destinations', { body: newDestination(values) })),
    onDone: async ({ data }) => {
      notifySuccess(destination ? `Saved ${data.name}.` : `Created the destination ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: AUDIT_KEY });
    },
    reasonFields: { DESTINATION_NAME_TAKEN: 'name' },
  });
  const { kind } = form.values;
  const keep = destination?.hasSecret
    ? 'Leave empty to keep the stored one (a new URL removes it unless you enter it again)'
    : undefined;
  return (
    <Modal
      opened
      onClose={onClose}
      title={destination ? `Edit ${destination.name}` : 'Create a destination'}
      size="lg"
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <Select
            label="Kind"
            data={Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label }))}
            allowDeselect={false}
            disabled={destination !== undefined}
            {...form.getInputProps('kind')}
          />
          {kind !== 'syslog' && <TextInput label="URL" type="url" {...form.getInputProps('url')} />}
          {kind === 'webhook' && (
            <PasswordInput
              label="Signing secret"
              description={keep ?? 'HMAC key, 16 characters or more'}
              autoComplete="off"
              {...form.getInputProps('secret')}
            />
          )}
          {kind === 'splunk_hec' && (
            <>
              <PasswordInput
                label="HEC token"
                description={keep}
                autoComplete="off"
                {...form.getInputProps('token')}
              />
              <TextInput label="Index" description="Optional" {...form.getInputProps('index')} />
            </>
          )}
          {kind === 'syslog' && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Host" {...form.getInputProps('host')} />
              <NumberInput
                label="Port"
                min={1}
                max={65535}
                allowDecimal={false}
                {...form.getInputProps('port')}
              />
              <Switch label="TLS" {...form.getInputProps('tls', { type: 'checkbox' })} />
            </SimpleGrid>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput
              label="Events per delivery"
              description="Empty: the default"
              min={1}
              max={10000}
              allowDecimal={false}
              {...form.getInputProps('batchSize')}
            />
            <NumberInput
              label="Attempts before failing"
              description="Empty: the default (8)"
              min={1}
              max={100}
              allowDecimal={false}
              {...form.getInputProps('maxAttempts')}
            />
          </SimpleGrid>
          <Switch label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <FormActions
            submitLabel={destination ? 'Save destination' : 'Create destination'}
            submitting={submitting}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
