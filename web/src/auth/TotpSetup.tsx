import { Code, Stack, Text } from '@mantine/core';
import { QrCode } from '../components/QrCode';

/** An enrolment's secret: the QR code to scan, and the key to type for apps that cannot scan. */
export function TotpSetup({ secret, otpauthUrl }: { secret: string; otpauthUrl: string }) {
  return (
    <Stack gap="xs" align="flex-start">
      <Text size="sm">
        Scan this code with an authenticator app (for example FreeOTP, Aegis or Google Authenticator), then
        enter the 6-digit code it shows.
      </Text>
      <QrCode value={otpauthUrl} label="QR code for your authenticator app" />
      <Text size="sm">Or type this key into the app:</Text>
      <Code style={{ overflowWrap: 'anywhere' }}>{secret}</Code>
    </Stack>
  );
}
