import { Route, Routes } from 'react-router';
import { ConnectorDetail } from './ConnectorDetail';
import { ConnectorList } from './ConnectorList';

/**
 * Repository hosts: the list (`/integrations`, also `/integrations/repohost`) and one connector
 * (`/integrations/repohost/:id`, where notifications about its token link to).
 */
export default function IntegrationsPage() {
  return (
    <Routes>
      <Route index element={<ConnectorList />} />
      <Route path="repohost" element={<ConnectorList />} />
      <Route path="repohost/:id" element={<ConnectorDetail />} />
    </Routes>
  );
}
