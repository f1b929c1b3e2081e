import { Anchor, Button } from '@mantine/core';
import { Link } from 'react-router';
import type { Certificate } from './queries';

/** The certificate's name, linking to its page. */
export function CertificateLink({ certificate }: { certificate: Pick<Certificate, 'id' | 'name'> }) {
  return (
    <Anchor component={Link} to={`/certificates/${certificate.id}`} fw={500}>
      {certificate.name}
    </Anchor>
  );
}

/** Downloads the certificate and its chain as one PEM file (the gateway names it; never the key). */
export function DownloadPemButton({
  certificate,
  size = 'xs',
}: {
  certificate: Pick<Certificate, 'id' | 'name'>;
  size?: 'xs' | 'sm';
}) {
  return (
    <Button
      component="a"
      href={`/api/ssl-certificates/${encodeURIComponent(certificate.id)}/download`}
      download
      size={size}
      variant="default"
      aria-label={`Download PEM of ${certificate.name}`}
    >
      Download PEM
    </Button>
  );
}
