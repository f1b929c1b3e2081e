import { Stack } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { PasswordSection } from './PasswordSection';
import { ProfileSection } from './ProfileSection';
import { SessionsSection } from './SessionsSection';
import { TokensSection } from './TokensSection';
import { TwoFactorSection } from './TwoFactorSection';

/** The signed-in user's own profile, password, second factor, browser sessions and API tokens. */
export default function AccountPage() {
  return (
    <Stack>
      <PageHeader
        title="My account"
        description="Your profile, how you sign in, where you are signed in, and your API tokens."
      />
      <ProfileSection />
      <PasswordSection />
      <TwoFactorSection />
      <SessionsSection />
      <TokensSection />
    </Stack>
  );
}
