import { Route, Routes } from 'react-router';
import { ContainerPage } from './ContainerPage';
import { NodePage } from './NodePage';
import { NodesPanel } from './NodesPanel';

/**
 * The Containers area: the nodes at `/containers`, a node's tabs at `/containers/<nodeId>/<tab>`,
 * one container at `/containers/<nodeId>/containers/<name>/<tab>`.
 */
export default function ContainersPage() {
  return (
    <Routes>
      <Route index element={<NodesPanel />} />
      <Route path=":nodeId/containers/:containerId/:tab?" element={<ContainerPage />} />
      <Route path=":nodeId/:tab?" element={<NodePage />} />
    </Routes>
  );
}
