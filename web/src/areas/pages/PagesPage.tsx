import { Route, Routes } from 'react-router';
import { ProjectPage } from './ProjectPage';
import { ProjectsPanel } from './ProjectsPanel';

/** The Pages area: the projects at `/pages`, one project's tabs at `/pages/<id>/…`. */
export default function PagesPage() {
  return (
    <Routes>
      <Route index element={<ProjectsPanel />} />
      <Route path=":projectId/*" element={<ProjectPage />} />
    </Routes>
  );
}
