import { Alert, Button, PasswordInput, TextInput } from '@mantine/core';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../api/errors';
import { FormBanner, useApiForm } from '../components/api-form';
import { SIGN_IN_REASONS, type SignInReason, safeReturnPath } from './return-path';
import { SignInFrame } from './SignInFrame';
import { useSession } from './session';

/** Email and password; afterwards the user lands on the page they came from. */
export default function SignInPage() {
  const { user, signIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeReturnPath(params.get('next'));
  const reason = SIGN_IN_REASONS[params.get('reason') as SignInReason] as string | undefined;
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
    onDone: () => navigate(next, { replace: true }),
  });

  if (user) return <Navigate to={next} replace />;
  return (
    <SignInFrame title="Sign in to infragate">
      {reason && !banner && (
        <Alert color="blue" role="status">
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
    </SignInFrame>
  );
}
