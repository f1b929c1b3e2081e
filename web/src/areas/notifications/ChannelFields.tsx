import {
  Checkbox,
  NumberInput,
  PasswordInput,
  Select,
  Switch,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { StoredSecretInput } from '../../components/StoredSecretInput';
import type { ChannelValues } from './channel-form';
import type { Channel } from './queries';

type Form = UseFormReturnType<ChannelValues>;

function WebhookFields({ form, channel }: { form: Form; channel?: Channel }) {
  return (
    <>
      <TextInput
        label="URL"
        placeholder="https://hooks.example.com/infragate"
        {...form.getInputProps('url')}
      />
      <StoredSecretInput
        label="Signing secret"
        description={
          channel?.hasSecret
            ? 'Requests are signed; type a new secret to replace it, or leave empty to keep it'
            : 'At least 16 characters; signs every request (X-Infragate-Signature)'
        }
        input={form.getInputProps('secret')}
        removal={
          channel?.hasSecret
            ? {
                label: 'Stop signing (remove the secret)',
                input: form.getInputProps('removeSecret', { type: 'checkbox' }),
              }
            : undefined
        }
      />
      <Textarea
        label="Custom headers"
        description={
          channel && channel.headerNames.length > 0
            ? `Sends ${channel.headerNames.join(', ')}; type headers here to replace them all (values are write-only)`
            : 'One per line, Name: value; the values are write-only'
        }
        autosize
        minRows={2}
        disabled={form.values.removeHeaders}
        {...form.getInputProps('headers')}
      />
      {channel && channel.headerNames.length > 0 && (
        <Checkbox
          label="Remove the custom headers"
          {...form.getInputProps('removeHeaders', { type: 'checkbox' })}
        />
      )}
    </>
  );
}

function SlackFields({ form, channel }: { form: Form; channel?: Channel }) {
  return (
    <PasswordInput
      label="Incoming-webhook URL"
      description={
        channel
          ? `Posts to ${channel.urlOrigin}; the URL is a credential, so it is not shown: paste a new one to replace it`
          : 'Slack, Mattermost or Rocket.Chat incoming-webhook URL; stored encrypted'
      }
      autoComplete="off"
      {...form.getInputProps('url')}
    />
  );
}

function EmailFields({ form, channel }: { form: Form; channel?: Channel }) {
  return (
    <>
      <TextInput label="SMTP host" {...form.getInputProps('smtpHost')} />
      <NumberInput
        label="SMTP port"
        description="Leave empty for 465 with TLS, 587 otherwise"
        min={1}
        max={65535}
        allowDecimal={false}
        {...form.getInputProps('smtpPort')}
      />
      <Switch
        label="TLS from the first byte (port 465)"
        {...form.getInputProps('smtpSecure', { type: 'checkbox' })}
      />
      {!form.values.smtpSecure && (
        <Select
          label="STARTTLS"
          data={[
            { value: 'required', label: 'Required before signing in and sending' },
            { value: 'opportunistic', label: 'When the server offers it' },
            { value: 'off', label: 'Never' },
          ]}
          allowDeselect={false}
          {...form.getInputProps('smtpStarttls')}
        />
      )}
      <TextInput label="SMTP username" autoComplete="off" {...form.getInputProps('smtpUsername')} />
      <StoredSecretInput
        label="SMTP password"
        description={
          channel?.smtp?.hasPassword ? 'A password is set; type a new one to replace it' : 'Stored encrypted'
        }
        input={form.getInputProps('smtpPassword')}
        removal={
          channel?.smtp?.hasPassword
            ? {
                label: 'Remove the password',
                input: form.getInputProps('removeSmtpPassword', { type: 'checkbox' }),
              }
            : undefined
        }
      />
      <Textarea
        label="CA certificates (PEM)"
        description={
          channel?.smtp?.hasCaPem
            ? 'A CA is trusted; paste another to replace it'
            : 'Only for a server with a private CA'
        }
        autosize
        minRows={2}
        maxRows={6}
        ff="monospace"
        {...form.getInputProps('smtpCaPem')}
      />
      <TextInput label="From" type="email" {...form.getInputProps('from')} />
      <TagsInput label="To" description="Press Enter after each address" {...form.getInputProps('to')} />
    </>
  );
}

/** The fields of the channel's kind. */
export function ChannelFields({ form, channel }: { form: Form; channel?: Channel }) {
  if (form.values.kind === 'webhook') return <WebhookFields form={form} {...(channel ? { channel } : {})} />;
  if (form.values.kind === 'slack') return <SlackFields form={form} {...(channel ? { channel } : {})} />;
  return <EmailFields form={form} {...(channel ? { channel } : {})} />;
}
