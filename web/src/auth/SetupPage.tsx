import { Alert, Anchor, Button, Center, Loader, PasswordInput, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, call } from '../api/client';
import { describeError } from '../api/errors';
import { FormBanner, useApiForm } from '../components/api-form';
import { SignInFrame } from './SignInFrame';
import { useSession } from './session';

/** The one-time link printed on the first start: the first admin chooses a password here. */
export default function SetupPage() {
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const { adopt } = useSession();
  const navigate = useNavigate();
  const check = useQuery({
    queryKey: ['setup', code],
    queryFn: () => call(api.POST('/auth/setup/check', { body: { code } })),
    enabled: code !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { password: '', repeated: '' },
    validate: {
      password: (value) => (value.length >= 8 ? null : 'Use at least 8 characters'),
      repeated: (value, values) => (value === values.password ? null : 'The two passwords differ'),
    },
    submit: ({ password }) => call(api.POST('/auth/setup', { body: { code, password } })),
    onDone: async () => {
      await adopt();
      navigate('/', { replace: true });
    },
  });

  if (!code || check.error) {
    return (
      <SignInFrame title="Set up infragate">
        <Alert color="red" role="alert" title="This setup link cannot be used">
          {code
            ? describeError(check.error)
            : 'The link has no code. Copy the whole link the gateway printed.'}
        </Alert>
        <Anchor component={Link} to="/signin">
          Go to sign-in
        </Anchor>
      </SignInFrame>
    );
  }
  if (!check.data) {
    return (
      <Center mih="100vh">
        <Loader aria-label="Checking the setup link" />
      </Center>
    );
  }
  return (
    <SignInFrame title="Set up infragate">
      <Text>
        Choose the password of <strong>{check.data.data.email}</strong>. You will be signed in right after.
      </Text>
      <FormBanner title="Not set" message={banner} />
      <form onSubmit={onSubmit} noValidate>
        {/* Lets a password manager store the new password under the right account. */}
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={check.data.data.email}
          readOnly
          hidden
        />
        <Stack>
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            description="At least 8 characters"
            data-autofocus
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label="Repeat the password"
            autoComplete="new-password"
            {...form.getInputProps('repeated')}
          />
          <Button type="submit" loading={submitting}>
            Set password and sign in
          </Button>
        </Stack>
      </form>
    </SignInFrame>
  );
}
