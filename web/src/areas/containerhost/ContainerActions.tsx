import { Button, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { notifyError, notifySuccess } from '../../components/notify';
import { nodeKey } from './queries';
import { RecreateButton } from './RecreateButton';

type Action = 'start' | 'pause' | 'unpause' | 'stop' | 'restart' | 'kill';

/** What the engine is asked, by action: one typed call each. */
function runAction(action: Action, path: { nodeId: string; containerId: string }) {
  const params = { params: { path } };
  switch (action) {
    case 'start':
      return call(api.POST('/api/containerhost/nodes/{nodeId}/containers/{containerId}/start', params));
    case 'pause':
      return call(api.POST('/api/containerhost/nodes/{nodeId}/containers/{containerId}/pause', params));
    case 'unpause':
      return call(api.POST('/api/containerhost/nodes/{nodeId}/containers/{containerId}/unpause', params));
    case 'stop':
      return call(
        api.POST('/api/containerhost/nodes/{nodeId}/containers/{containerId}/stop', { ...params, body: {} }),
      );
    case 'restart':
      return call(
        api.POST('/api/containerhost/nodes/{nodeId}/containers/{containerId}/restart', {
          ...params,
          body: {},
        }),
      );
    case 'kill':
      return call(
        api.POST('/api/containerhost/nodes/{nodeId}/containers/{containerId}/kill', { ...params, body: {} }),
      );
  }
}

const DONE: Record<Action, string> = {
  start: 'Started',
  pause: 'Paused',
  unpause: 'Resumed',
  stop: 'Stopped',
  restart: 'Restarted',
  kill: 'Killed',
};

/**
 * The lifecycle buttons a container's state allows: start a stopped one, pause/stop/restart/kill a
 * running one, unpause a paused one, recreate and remove any (a running one removed by force).
 * Stopping, restarting, killing, recreating and removing confirm first.
 */
export function ContainerActions({
  nodeId,
  container,
  onRemoved,
}: {
  nodeId: string;
  container: { name: string; state: string };
  onRemoved?: () => void;
}) {
  const queryClient = useQueryClient();
  const [working, setWorking] = useState<Action | undefined>();
  const { name, state } = container;
  const path = { nodeId, containerId: name };
  const refresh = () => queryClient.invalidateQueries({ queryKey: nodeKey(nodeId) });
  const act = async (action: Action) => {
    await runAction(action, path);
    notifySuccess(`${DONE[action]} ${name}.`);
    await refresh();
  };
  const plain = (action: Action, label: string) => (
    <Button
      size="xs"
      variant="light"
      loading={working === action}
      aria-label={`${label} ${name}`}
      onClick={async () => {
        setWorking(action);
        await act(action).catch(notifyError);
        setWorking(undefined);
      }}
    >
      {label}
    </Button>
  );
  const confirmed = (action: Action, label: string, message: string) => (
    <ConfirmButton
      size="xs"
      color={action === 'restart' ? 'blue' : 'red'}
      label={label}
      aria-label={`${label} ${name}`}
      title={`${label} ${name}?`}
      message={message}
      confirmLabel={label}
      onConfirm={() => act(action)}
    />
  );
  const running = state === 'running';
  const paused = state === 'paused';
  const remove = async () => {
    await call(
      api.DELETE('/api/containerhost/nodes/{nodeId}/containers/{containerId}', {
        params: { path, query: { force: running || paused } },
      }),
    );
    notifySuccess(`Removed ${name}.`);
    onRemoved?.();
    await refresh();
  };
  return (
    <Group gap={6}>
      {!running && !paused && plain('start', 'Start')}
      {running && plain('pause', 'Pause')}
      {paused && plain('unpause', 'Unpause')}
      {(running || paused) &&
        confirmed(
          'stop',
          'Stop',
          'The engine sends SIGTERM, then SIGKILL if it has not exited after the timeout.',
        )}
      {running && confirmed('restart', 'Restart', 'The container is stopped and started again.')}
      {running &&
        confirmed('kill', 'Kill', 'The engine sends SIGKILL: the processes end at once, without cleanup.')}
      <RecreateButton nodeId={nodeId} name={name} onRecreated={refresh} />
      <ConfirmButton
        size="xs"
        label="Remove"
        aria-label={`Remove ${name}`}
        title={`Remove ${name}?`}
        message={
          running || paused
            ? 'The container is running: it is stopped by force and removed, with its writable layer.'
            : 'The container and its writable layer are removed; named volumes stay.'
        }
        confirmLabel="Remove"
        onConfirm={remove}
      />
    </Group>
  );
}
