import { Text } from '@mantine/core';
import { OneTimeSecret } from '../components/OneTimeSecret';

/** The ten recovery codes of a new enrolment, shown once. */
export function RecoveryCodesNotice({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <OneTimeSecret secret={codes.join('\n')} copyLabel="Copy recovery codes" onDone={onDone}>
      <Text size="sm">
        Two-factor sign-in is on. Each recovery code signs you in once if you lose your authenticator.
      </Text>
    </OneTimeSecret>
  );
}
