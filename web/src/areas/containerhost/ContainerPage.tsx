import { Anchor, Code, Group, Stack, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client';
import { FactList } from '../../components/FactList';
import { PageHeader } from '../../components/PageHeader';
import { QueryView } from '../../components/QueryView';
import { RelativeTime } from '../../components/RelativeTime';
import { lazyPart } from '../../shell/reload-on-failed-load';
import { ContainerActions } from './ContainerActions';
import { ContainerNetworksPanel } from './ContainerNetworksPanel';
import { StateBadge } from './ContainersPanel';
import { ExecPanel } from './ExecPanel';
import { FilesPanel } from './FilesPanel';
import { HealthCheckPanel } from './HealthCheckPanel';
import { LogsPanel } from './LogsPanel';
import { type Container, containerKey, formatPort, nodePath, useMayManageContainers } from './queries';
import { StatsPanel } from './StatsPanel';

// xterm.js is large: its chunk loads only when the Terminal tab opens.
const TerminalScreen = lazyPart(() => import('./TerminalScreen'));

const TABS = [
  { value: 'logs', label: 'Logs', manage: false },
  { value: 'details', label: 'Details', manage: false },
  { value: 'stats', label: 'Stats', manage: false },
  { value: 'files', label: 'Files', manage: false },
  { value: 'networks', label: 'Networks', manage: false },
  { value: 'exec', label: 'Run a command', manage: true },
  { value: 'terminal', label: 'Terminal', manage: true },
  { value: 'health', label: 'Health check', manage: false },
] as const;

function stateOf(container: Container): string {
  return container.state.paused ? 'paused' : container.state.status;
}

function Details({ container }: { container: Container }) {
  return (
    <FactList
      facts={[
        { label: 'Image', value: container.image ?? container.imageId },
        {
          label: 'Command',
          value: container.command.length ? <Code>{container.command.join(' ')}</Code> : '—',
        },
        { label: 'Created', value: <RelativeTime value={container.createdAt} /> },
        { label: 'Started', value: <RelativeTime value={container.state.startedAt} /> },
        { label: 'Exit code', value: container.state.exitCode ?? '—' },
        { label: 'Restart policy', value: container.restartPolicy ?? '—' },
        { label: 'Ports', value: container.ports.map(formatPort).join(', ') || '—' },
        {
          label: 'Networks',
          value:
            container.networks
              .map((network) => `${network.name}${network.ipAddress ? ` (${network.ipAddress})` : ''}`)
              .join(', ') || '—',
        },
        {
          label: 'Mounts',
          value:
            container.mounts
              .map(
                (mount) =>
                  `${mount.name ?? mount.source} → ${mount.destination}${mount.readOnly ? ' (read-only)' : ''}`,
              )
              .join(', ') || '—',
        },
      ]}
    />
  );
}

/** One container (`/containers/<nodeId>/containers/<name>/<tab>`): its state and actions, logs, details, stats, files, exec, terminal, health check. */
export function ContainerPage() {
  const { nodeId = '', containerId = '', tab = 'logs' } = useParams();
  const navigate = useNavigate();
  const mayManage = useMayManageContainers(nodeId);
  const base = nodePath(nodeId, `/containers/${encodeURIComponent(containerId)}`);
  const container = useQuery({
    queryKey: containerKey(nodeId, containerId),
    queryFn: () =>
      call(
        api.GET('/api/containerhost/nodes/{nodeId}/containers/{containerId}', {
          params: { path: { nodeId, containerId } },
        }),
      ),
  });
  const tabs = TABS.filter((entry) => mayManage || !entry.manage);
  const current = tabs.some((entry) => entry.value === tab) ? tab : 'logs';
  return (
    <Stack gap={0}>
      <Anchor component={Link} to={nodePath(nodeId)} size="sm" mb="xs">
        ← Containers of the node
      </Anchor>
      <QueryView query={container}>
        {({ data }) => (
          <Stack gap={0}>
            <PageHeader
              title={data.name}
              description={
                <Group gap="xs" component="span">
                  <StateBadge state={stateOf(data)} />
                  <Text component="span" size="sm" style={{ wordBreak: 'break-all' }}>
                    {data.image}
                  </Text>
                </Group>
              }
              action={
                mayManage && (
                  <ContainerActions
                    nodeId={nodeId}
                    container={{ name: data.name, state: stateOf(data) }}
                    onRemoved={() => navigate(nodePath(nodeId))}
                  />
                )
              }
            />
            <Tabs value={current} onChange={(value) => navigate(`${base}/${value}`)} keepMounted={false}>
              <Tabs.List mb="md">
                {tabs.map((entry) => (
                  <Tabs.Tab key={entry.value} value={entry.value}>
                    {entry.label}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
              <Tabs.Panel value="logs">
                <LogsPanel nodeId={nodeId} containerId={containerId} />
              </Tabs.Panel>
              <Tabs.Panel value="details">
                <Details container={data} />
              </Tabs.Panel>
              <Tabs.Panel value="stats">
                <StatsPanel nodeId={nodeId} containerId={containerId} />
              </Tabs.Panel>
              <Tabs.Panel value="files">
                <FilesPanel nodeId={nodeId} containerId={containerId} />
              </Tabs.Panel>
              <Tabs.Panel value="networks">
                <ContainerNetworksPanel nodeId={nodeId} container={data} />
              </Tabs.Panel>
              {mayManage && (
                <Tabs.Panel value="exec">
                  <ExecPanel nodeId={nodeId} containerId={containerId} />
                </Tabs.Panel>
              )}
              {mayManage && (
                <Tabs.Panel value="terminal">
                  <TerminalScreen nodeId={nodeId} containerId={containerId} />
                </Tabs.Panel>
              )}
              <Tabs.Panel value="health">
                <HealthCheckPanel nodeId={nodeId} containerName={data.name} />
              </Tabs.Panel>
            </Tabs>
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}
