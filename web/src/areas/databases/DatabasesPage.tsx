import { Route, Routes } from 'react-router';
import { DatabaseDetail } from './DatabaseDetail';
import { DatabaseList } from './DatabaseList';

/** The registry (`/databases`) and one database with its console (`/databases/:id`). */
export default function DatabasesPage() {
  return (
    <Routes>
      <Route index element={<DatabaseList />} />
      <Route path=":id" element={<DatabaseDetail />} />
    </Routes>
  );
}
