import { Stack } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { ProfileSection } from './ProfileSection';
import { SessionsSection } from './SessionsSection';
import { TokensSection } from './TokensSection';

/** The signed-in user's own profile, browser sessions and API tokens. */
export default function AccountPage() {
  return (
    <Stack>
      <PageHeader
        title="My account"
        description="Your profile, where you are signed in, and your API tokens."
      />
      <ProfileSection />
      <SessionsSection />
      <TokensSection />
    </Stack>
  );
}
