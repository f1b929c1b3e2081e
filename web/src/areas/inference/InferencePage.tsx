import { Stack } from '@mantine/core';
import { useState } from 'react';
import { mayUse } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { ConnectDialog } from './ConnectDialog';
import { ConnectionList } from './ConnectionList';
import { ProviderCatalog } from './ProviderCatalog';
import type { Provider } from './queries';

/** The connections to inference providers, and the catalog of providers to connect to. */
export default function InferencePage() {
  const canManage = mayUse(useCurrentUser().scopes, 'inference:manage');
  const [connecting, setConnecting] = useState<Provider | undefined>();
  return (
    <Stack>
      <PageHeader
        title="Inference"
        description="Connections to inference providers: by API key, to a local server, or by signing in."
      />
      <Section title="Connections">
        <ConnectionList canManage={canManage} />
      </Section>
      <Section title="Providers">
        <ProviderCatalog {...(canManage ? { onConnect: setConnecting } : {})} />
      </Section>
      {connecting && <ConnectDialog provider={connecting} onClose={() => setConnecting(undefined)} />}
    </Stack>
  );
}
