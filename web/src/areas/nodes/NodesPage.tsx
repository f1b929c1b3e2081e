import { Route, Routes } from 'react-router';
import { NodeDetail } from './NodeDetail';
import { NodeList } from './NodeList';

/** The storage nodes (`/nodes`) and one node with its uploads (`/nodes/:id`). */
export default function NodesPage() {
  return (
    <Routes>
      <Route index element={<NodeList />} />
      <Route path=":id" element={<NodeDetail />} />
    </Routes>
  );
}
