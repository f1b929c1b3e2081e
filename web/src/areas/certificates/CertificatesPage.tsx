import { Tabs } from '@mantine/core';
import { Route, Routes, useMatch, useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { CertificateDetail } from './CertificateDetail';
import { CertificatesPanel } from './CertificatesPanel';
import { DnsProvidersPanel } from './DnsProvidersPanel';

/** The certificates (`/certificates`) and DNS providers (`/certificates/dns-providers`) tabs. */
function CertificateLists() {
  const navigate = useNavigate();
  const tab = useMatch('/certificates/dns-providers') ? 'dns-providers' : 'certificates';
  return (
    <>
      <PageHeader
        title="Certificates"
        description="Uploaded certificates and those ordered from an ACME CA, with their expiry; the gateway serves them over HTTPS."
      />
      <Tabs
        value={tab}
        onChange={(value) =>
          navigate(value === 'dns-providers' ? '/certificates/dns-providers' : '/certificates')
        }
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="certificates">Certificates</Tabs.Tab>
          <Tabs.Tab value="dns-providers">DNS providers</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="certificates">
          <CertificatesPanel />
        </Tabs.Panel>
        <Tabs.Panel value="dns-providers">
          <DnsProvidersPanel />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

/** The Certificates area: the lists, and one certificate at `/certificates/<id>`. */
export default function CertificatesPage() {
  return (
    <Routes>
      <Route index element={<CertificateLists />} />
      <Route path="dns-providers" element={<CertificateLists />} />
      <Route path=":id" element={<CertificateDetail />} />
    </Routes>
  );
}
