import { Tabs } from '@mantine/core';
import { Route, Routes, useMatch, useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { EnvironmentPage } from './EnvironmentPage';
import { EnvironmentsPanel } from './EnvironmentsPanel';
import { SchemasPanel } from './SchemasPanel';

/** Environments (`/logging`) and schemas (`/logging/schemas`), each beside its folder tree. */
function LoggingLists() {
  const navigate = useNavigate();
  const tab = useMatch('/logging/schemas') ? 'schemas' : 'environments';
  return (
    <>
      <PageHeader
        title="Logging"
        description="Environments receive and keep log records; schemas describe their fields."
      />
      <Tabs
        value={tab}
        onChange={(value) => navigate(value === 'schemas' ? '/logging/schemas' : '/logging')}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="environments">Environments</Tabs.Tab>
          <Tabs.Tab value="schemas">Schemas</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="environments">
          <EnvironmentsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="schemas">
          <SchemasPanel />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

/** The Logging area: the lists, and one environment at `/logging/environments/<id>`. */
export default function LoggingPage() {
  return (
    <Routes>
      <Route index element={<LoggingLists />} />
      <Route path="schemas" element={<LoggingLists />} />
      <Route path="environments/:id/*" element={<EnvironmentPage />} />
    </Routes>
  );
}
