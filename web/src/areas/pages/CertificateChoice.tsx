import { Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { mayAccess } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';

const NONE = 'none';

interface CertificateChoiceProps {
  /** A certificate id, or null for none. */
  value?: string | null;
  onChange: (value: string | null) => void;
  error?: string;
}

/**
 * Picks the stored certificate that serves a domain over HTTPS (the gateway checks that it names
 * the host). Listing certificates needs certificates:view; without it the field says so.
 */
export function CertificateChoice({ value, onChange, error }: CertificateChoiceProps) {
  const mayList = mayAccess(useCurrentUser().scopes, { anyOf: ['certificates:view'] });
  const certificates = useQuery({
    queryKey: ['certificates', 'list', 'choices'],
    queryFn: () => call(api.GET('/api/ssl-certificates', { params: { query: { limit: 100 } } })),
    enabled: mayList,
  });
  if (!mayList) {
    return (
      <Text size="sm" c="dimmed">
        Choosing a certificate needs the scope certificates:view.
      </Text>
    );
  }
  const choices = [
    { value: NONE, label: 'None' },
    ...(certificates.data?.data ?? [])
      .filter((certificate) => certificate.notAfter !== null)
      .map((certificate) => ({
        value: certificate.id,
        label: `${certificate.name} (${certificate.sans?.join(', ') ?? ''})`,
      })),
  ];
  return (
    <Select
      label="Certificate"
      description="The stored certificate that serves this name over HTTPS; it must name the host"
      data={choices}
      value={value ?? NONE}
      onChange={(chosen) => onChange(chosen === NONE || chosen === null ? null : chosen)}
      allowDeselect={false}
      searchable
      error={error}
    />
  );
}
