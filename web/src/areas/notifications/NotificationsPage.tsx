import { Tabs } from '@mantine/core';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { mayUse } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';
import { PageHeader } from '../../components/PageHeader';
import { ChannelsPanel } from './ChannelsPanel';
import { DeliveriesPanel } from './DeliveriesPanel';
import { DeliveryPage } from './DeliveryPage';
import { RulesPanel } from './RulesPanel';

const TABS = [
  { value: 'channels', label: 'Channels', path: '/notifications' },
  { value: 'rules', label: 'Rules', path: '/notifications/rules' },
  { value: 'deliveries', label: 'Deliveries', path: '/notifications/deliveries' },
] as const;

/**
 * Channels (`/notifications`, where test messages link to), rules (`/notifications/rules`) and
 * deliveries (`/notifications/deliveries`), each a tab with its own address.
 */
function NotificationTabs({ canManage }: { canManage: boolean }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tab =
    TABS.find((candidate) => candidate.path !== '/notifications' && pathname.startsWith(candidate.path))
      ?.value ?? 'channels';
  return (
    <>
      <PageHeader
        title="Notifications"
        description="Rules send events (expiring certificates, failing health checks, a broken audit chain …) to channels."
      />
      <Tabs
        value={tab}
        onChange={(value) =>
          navigate(TABS.find((candidate) => candidate.value === value)?.path ?? '/notifications')
        }
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {TABS.map((candidate) => (
            <Tabs.Tab key={candidate.value} value={candidate.value}>
              {candidate.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="channels">
          <ChannelsPanel canManage={canManage} />
        </Tabs.Panel>
        <Tabs.Panel value="rules">
          <RulesPanel canManage={canManage} />
        </Tabs.Panel>
        <Tabs.Panel value="deliveries">
          <DeliveriesPanel canManage={canManage} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

/** The tabs, and one delivery with its attempts at `/notifications/deliveries/<id>`. */
export default function NotificationsPage() {
  const canManage = mayUse(useCurrentUser().scopes, 'notifications:manage');
  return (
    <Routes>
      <Route path="deliveries/:id" element={<DeliveryPage canManage={canManage} />} />
      <Route path="*" element={<NotificationTabs canManage={canManage} />} />
    </Routes>
  );
}
