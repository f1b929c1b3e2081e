import { Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { KeyConnectForm } from './KeyConnectForm';
import { OAuthSignIn } from './OAuthSignIn';
import { AUTH_TYPE_LABELS, type AuthType, type Provider } from './queries';

/** Connects to a provider by the method the user picks among those the catalog entry offers. */
export function ConnectDialog({ provider, onClose }: { provider: Provider; onClose: () => void }) {
  const [method, setMethod] = useState<AuthType>(provider.authTypes[0] ?? 'api_key');
  return (
    <Modal opened onClose={onClose} title={`Connect to ${provider.label}`} size="lg">
      <Stack>
        {provider.authTypes.length > 1 && (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="connect-method">
              How to connect
            </Text>
            <SegmentedControl
              aria-labelledby="connect-method"
              value={method}
              onChange={(value) => setMethod(value as AuthType)}
              data={provider.authTypes.map((type) => ({ value: type, label: AUTH_TYPE_LABELS[type] }))}
            />
          </Stack>
        )}
        {method === 'oauth' ? (
          <OAuthSignIn provider={provider} onClose={onClose} />
        ) : (
          <KeyConnectForm key={method} provider={provider} authType={method} onClose={onClose} />
        )}
      </Stack>
    </Modal>
  );
}
