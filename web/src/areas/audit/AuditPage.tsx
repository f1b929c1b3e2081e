import { Tabs } from '@mantine/core';
import { useMatch, useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { DeliveriesPanel } from './DeliveriesPanel';
import { DestinationsPanel } from './DestinationsPanel';
import { EventsPanel } from './EventsPanel';

const TABS = [
  { value: 'events', label: 'Events', path: '/audit' },
  { value: 'destinations', label: 'SIEM destinations', path: '/audit/destinations' },
  { value: 'deliveries', label: 'Deliveries', path: '/audit/deliveries' },
] as const;

/** The audit trail (`/audit`), its SIEM destinations and their deliveries, each a tab with its address. */
export default function AuditPage() {
  const navigate = useNavigate();
  const onDestinations = useMatch('/audit/destinations');
  const onDeliveries = useMatch('/audit/deliveries');
  const tab = onDestinations ? 'destinations' : onDeliveries ? 'deliveries' : 'events';
  return (
    <>
      <PageHeader
        title="Audit"
        description="Every change, hash-chained so edits are detected, and exported to your SIEM."
      />
      <Tabs
        value={tab}
        onChange={(value) => navigate(TABS.find((item) => item.value === value)?.path ?? '/audit')}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {TABS.map((item) => (
            <Tabs.Tab key={item.value} value={item.value}>
              {item.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="events">
          <EventsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="destinations">
          <DestinationsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="deliveries">
          <DeliveriesPanel />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
