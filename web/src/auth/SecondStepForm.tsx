import { Anchor, Button, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../api/client';
import { FormBanner, useApiForm } from '../components/api-form';
import { QueryView } from '../components/QueryView';
import { type SecondStepChallenge, useSession } from './session';
import { TotpSetup } from './TotpSetup';

/** The enrolment a login must make first: its secret, fetched once for this challenge. */
function RequiredEnrolment({ challengeToken }: { challengeToken: string }) {
  const enrolment = useQuery({
    queryKey: ['login-enrolment', challengeToken],
    queryFn: () => call(api.POST('/auth/login/totp/enrol', { body: { challengeToken } })),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return <QueryView query={enrolment}>{({ data }) => <TotpSetup {...data} />}</QueryView>;
}

/**
 * The second step of a login: the authenticator's code, or a recovery code instead. When the
 * user's group requires a second factor they have not set up, they enrol here first.
 */
export function SecondStepForm({
  challenge,
  onSignedIn,
  onRecoveryCodes,
}: {
  challenge: SecondStepChallenge;
  onSignedIn: () => void;
  onRecoveryCodes: (codes: string[]) => void;
}) {
  const { completeSecondStep } = useSession();
  const enrolling = 'mfaEnrollmentRequired' in challenge;
  const [useRecovery, setUseRecovery] = useState(false);
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { code: '' },
    validate: { code: (value) => (value.trim() ? null : 'Enter the code') },
    submit: ({ code }) =>
      completeSecondStep({
        challengeToken: challenge.challengeToken,
        ...(useRecovery ? { recoveryCode: code.trim() } : { code: code.replace(/\s/g, '') }),
      }),
    onDone: (codes) => (codes ? onRecoveryCodes(codes) : onSignedIn()),
  });
  return (
    <>
      {enrolling && <RequiredEnrolment challengeToken={challenge.challengeToken} />}
      <FormBanner title="Not signed in" message={banner} />
      <form onSubmit={onSubmit} noValidate>
        <TextInput
          label={useRecovery ? 'Recovery code' : 'Authentication code'}
          description={useRecovery ? undefined : 'The 6-digit code of your authenticator app'}
          autoComplete="one-time-code"
          inputMode={useRecovery ? 'text' : 'numeric'}
          mb="lg"
          data-autofocus
          {...form.getInputProps('code')}
        />
        <Button type="submit" fullWidth loading={submitting}>
          {enrolling ? 'Turn on and sign in' : 'Verify'}
        </Button>
      </form>
      {!enrolling && (
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            setUseRecovery(!useRecovery);
            form.reset();
          }}
        >
          {useRecovery ? 'Use the authenticator app' : 'Use a recovery code instead'}
        </Anchor>
      )}
    </>
  );
}
