import { Anchor, Code, Stack, Tabs } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { mayUse } from '../../auth/access';
import { useCurrentUser } from '../../auth/session';
import { PageHeader } from '../../components/PageHeader';
import { QueryView } from '../../components/QueryView';
import { ContainersPanel } from './ContainersPanel';
import { ImagesPanel } from './ImagesPanel';
import { NetworksPanel } from './NetworksPanel';
import { OrderPanel } from './OrderPanel';
import { nodePath, useNode } from './queries';
import { VolumesPanel } from './VolumesPanel';

const TABS = [
  { value: 'containers', label: 'Containers' },
  { value: 'images', label: 'Images' },
  { value: 'networks', label: 'Networks' },
  { value: 'volumes', label: 'Volumes' },
  { value: 'order', label: 'Order and folders' },
] as const;
type Tab = (typeof TABS)[number]['value'];

/** One node (`/containers/<nodeId>/<tab>`): its engine, and tabs for its containers, images, networks, volumes. */
export function NodePage() {
  const { nodeId = '', tab = 'containers' } = useParams();
  const navigate = useNavigate();
  const node = useNode(nodeId);
  // Folders and the saved order are shared by every node: they need containerhost:view on the area.
  const tabs = mayUse(useCurrentUser().scopes, 'containerhost:view')
    ? TABS
    : TABS.filter((entry) => entry.value !== 'order');
  const current: Tab = tabs.some((entry) => entry.value === tab) ? (tab as Tab) : 'containers';
  return (
    <Stack gap={0}>
      <Anchor component={Link} to="/containers" size="sm" mb="xs">
        ← All nodes
      </Anchor>
      <QueryView query={node}>
        {({ data }) => (
          <PageHeader
            title={data.name}
            description={
              <>
                <Code>{data.endpoint}</Code> · engine {data.engine.version} (API {data.engine.apiVersion})
                {data.engine.os && ` on ${data.engine.os}/${data.engine.arch ?? '?'}`}
              </>
            }
          />
        )}
      </QueryView>
      <Tabs value={current} onChange={(value) => navigate(nodePath(nodeId, `/${value}`))} keepMounted={false}>
        <Tabs.List mb="md">
          {tabs.map((entry) => (
            <Tabs.Tab key={entry.value} value={entry.value}>
              {entry.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="containers">
          <ContainersPanel nodeId={nodeId} />
        </Tabs.Panel>
        <Tabs.Panel value="images">
          <ImagesPanel nodeId={nodeId} />
        </Tabs.Panel>
        <Tabs.Panel value="networks">
          <NetworksPanel nodeId={nodeId} />
        </Tabs.Panel>
        <Tabs.Panel value="volumes">
          <VolumesPanel nodeId={nodeId} />
        </Tabs.Panel>
        <Tabs.Panel value="order">
          <OrderPanel nodeId={nodeId} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
