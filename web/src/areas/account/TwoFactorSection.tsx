import { Badge, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { RecoveryCodesNotice } from '../../auth/RecoveryCodesNotice';
import { TotpSetup } from '../../auth/TotpSetup';
import { FormBanner, useApiForm } from '../../components/api-form';
import { notifyError, notifySuccess } from '../../components/notify';
import { QueryView } from '../../components/QueryView';
import { RelativeTime } from '../../components/RelativeTime';
import { Section } from '../../components/Section';
import { TOTP_KEY } from './query-keys';

type Enrolment = Answer<'/auth/me/totp', 'post'>['data'];

/** Scan, confirm with a first code, then the recovery codes once. */
function EnrolDialog({ enrolment, onClose }: { enrolment: Enrolment; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [codes, setCodes] = useState<string[] | undefined>();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { code: '' },
    submit: ({ code }) =>
      call(api.POST('/auth/me/totp/confirm', { body: { code: code.replace(/\s/g, '') } })),
    onDone: async ({ data }) => {
      setCodes(data.recoveryCodes);
      await queryClient.invalidateQueries({ queryKey: TOTP_KEY });
    },
  });
  return (
    <Modal opened onClose={onClose} title="Turn on two-factor sign-in" size="md">
      {codes ? (
        <RecoveryCodesNotice codes={codes} onDone={onClose} />
      ) : (
        <Stack>
          <TotpSetup {...enrolment} />
          <form onSubmit={onSubmit} noValidate>
            <FormBanner message={banner} />
            <TextInput
              label="Authentication code"
              autoComplete="one-time-code"
              inputMode="numeric"
              mb="sm"
              {...form.getInputProps('code')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={submitting}>
                Turn on
              </Button>
            </Group>
          </form>
        </Stack>
      )}
    </Modal>
  );
}

/** Turning it off needs a proof: the password here (a code works through the API too). */
function DisableForm({ onDone }: { onDone: () => Promise<void> }) {
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { password: '' },
    submit: (body) => call(api.DELETE('/auth/me/totp', { body })),
    onDone,
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <FormBanner message={banner} />
      <Group align="flex-end">
        <PasswordInput
          label="Password to turn it off"
          autoComplete="current-password"
          style={{ flex: 1 }}
          {...form.getInputProps('password')}
        />
        <Button type="submit" color="red" variant="light" loading={submitting}>
          Turn off
        </Button>
      </Group>
    </form>
  );
}

/** My second factor: an authenticator app (TOTP) and its recovery codes. */
export function TwoFactorSection() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: TOTP_KEY, queryFn: () => call(api.GET('/auth/me/totp')) });
  const [enrolment, setEnrolment] = useState<Enrolment | undefined>();
  const start = async () => setEnrolment((await call(api.POST('/auth/me/totp'))).data);
  const turnedOff = async () => {
    notifySuccess('Two-factor sign-in is off.');
    await queryClient.invalidateQueries({ queryKey: TOTP_KEY });
  };
  return (
    <Section title="Two-factor sign-in">
      <QueryView query={status}>
        {({ data }) =>
          data.enabled ? (
            <Stack>
              <Group gap="xs">
                <Badge color="green">On</Badge>
                <Text size="sm">
                  Since <RelativeTime value={data.enabledAt} />; {data.recoveryCodesLeft} recovery codes left.
                </Text>
              </Group>
              {data.required ? (
                <Text size="sm" c="dimmed">
                  Your group requires it, so it cannot be turned off.
                </Text>
              ) : (
                <DisableForm onDone={turnedOff} />
              )}
            </Stack>
          ) : (
            <Group justify="space-between">
              <Text size="sm">
                Off: signing in needs only your password. Add an authenticator app for a second step.
              </Text>
              <Button onClick={() => void start().catch(notifyError)}>Set up two-factor sign-in</Button>
            </Group>
          )
        }
      </QueryView>
      {enrolment && <EnrolDialog enrolment={enrolment} onClose={() => setEnrolment(undefined)} />}
    </Section>
  );
}
