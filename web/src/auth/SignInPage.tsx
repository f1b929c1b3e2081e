import { Alert, Button, PasswordInput, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../api/errors';
import { FormBanner, useApiForm } from '../components/api-form';
import { RecoveryCodesNotice } from './RecoveryCodesNotice';
import { SIGN_IN_REASONS, type SignInReason, safeReturnPath } from './return-path';
import { SecondStepForm } from './SecondStepForm';
import { SignInFrame } from './SignInFrame';
import { SingleSignOnButtons, SSO_REFUSALS } from './SingleSignOnButtons';
import { type SecondStepChallenge, useSession } from './session';

/**
 * Email and password (then the authenticator's code when two-factor sign-in is on), or a single
 * sign-on provider; afterwards the user lands on the page they came from.
 */
export default function SignInPage() {
  const { user, signIn, resumeAfterCodes } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeReturnPath(params.get('next'));
  const reason =
    (SIGN_IN_REASONS[params.get('reason') as SignInReason] as string | undefined) ??
    SSO_REFUSALS[params.get('sso') ?? ''];
  const [challenge, setChallenge] = useState<SecondStepChallenge | undefined>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | undefined>();
  const signedIn = () => navigate(next, { replace: true });
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (value.trim() ? null : 'Enter your email'),
      password: (value) => (value ? null : 'Enter your password'),
    },
    submit: (values) =>
      signIn(values).catch((error: unknown) => {
        // A plain 401 is "wrong email or password"; a throttled one explains itself.
        if (error instanceof ApiError && error.status === 401 && !error.reason) {
          throw new Error('The email or password is not correct.');
        }
        throw error;
      }),
    onDone: (secondStep) => (secondStep ? setChallenge(secondStep) : signedIn()),
  });

  if (recoveryCodes) {
    return (
      <SignInFrame title="Save your recovery codes">
        <RecoveryCodesNotice
          codes={recoveryCodes}
          onDone={() => {
            resumeAfterCodes();
            setRecoveryCodes(undefined);
          }}
        />
      </SignInFrame>
    );
  }
  if (user) return <Navigate to={next} replace />;
  if (challenge) {
    const enrolling = 'mfaEnrollmentRequired' in challenge;
    return (
      <SignInFrame title={enrolling ? 'Set up two-factor sign-in' : 'Two-factor sign-in'}>
        <SecondStepForm challenge={challenge} onSignedIn={signedIn} onRecoveryCodes={setRecoveryCodes} />
      </SignInFrame>
    );
  }
  return (
    <SignInFrame title="Sign in to infragate">
      {reason && !banner && (
        <Alert color={params.get('sso') ? 'red' : 'blue'} role="status">
          {reason}
        </Alert>
      )}
      <FormBanner title="Not signed in" message={banner} />
      <form onSubmit={onSubmit} noValidate>
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          mb="sm"
          data-autofocus
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          mb="lg"
          {...form.getInputProps('password')}
        />
        <Button type="submit" fullWidth loading={submitting}>
          Sign in
        </Button>
      </form>
      <SingleSignOnButtons next={next} />
    </SignInFrame>
  );
}
