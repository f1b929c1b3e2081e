import { Modal, SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { ChannelFields } from './ChannelFields';
import { type ChannelValues, channelChanges, channelValues, newChannel, parseHeaders } from './channel-form';
import { type Channel, type ChannelKind, NOTIFICATIONS_KEY } from './queries';

const KINDS: { value: ChannelKind; label: string }[] = [
  { value: 'webhook', label: 'Webhook' },
  { value: 'slack', label: 'Slack-compatible' },
  { value: 'email', label: 'Email' },
];

function headersOf(values: ChannelValues): Record<string, string> {
  const parsed = parseHeaders(values.headers);
  return 'headers' in parsed ? parsed.headers : {};
}

/** Creates a channel, or (given one) changes it; secrets are write-only and sent only when typed. */
export function ChannelDialog({ channel, onClose }: { channel?: Channel; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: channelValues(channel),
    validate: {
      headers: (text) => {
        const parsed = parseHeaders(text);
        return 'error' in parsed ? parsed.error : null;
      },
    },
    submit: (values) =>
      channel
        ? call(
            api.PATCH('/api/notifications/channels/{id}', {
              params: { path: { id: channel.id } },
              body: channelChanges(values, headersOf(values)),
            }),
          )
        : call(api.POST('/api/notifications/channels', { body: newChannel(values, headersOf(values)) })),
    onDone: async ({ data }) => {
      notifySuccess(channel ? `Saved ${data.name}.` : `Created the channel ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
    },
  });
  return (
    <Modal opened onClose={onClose} title={channel ? `Edit ${channel.name}` : 'Create a channel'} size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          {channel ? (
            <Text size="sm">Kind: {KINDS.find((kind) => kind.value === channel.kind)?.label}</Text>
          ) : (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="channel-kind">
                Kind
              </Text>
              <SegmentedControl aria-labelledby="channel-kind" data={KINDS} {...form.getInputProps('kind')} />
            </Stack>
          )}
          <ChannelFields form={form} {...(channel ? { channel } : {})} />
          <Switch label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <FormActions
            submitLabel={channel ? 'Save channel' : 'Create channel'}
            submitting={submitting}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
