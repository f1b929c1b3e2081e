import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorNotice } from './ErrorNotice';
import { PageLoader } from './PageLoader';

/** A query's data through `children`, or its loader, or its error (a 403 explained). */
export function QueryView<Data>({
  query,
  children,
}: {
  query: UseQueryResult<Data>;
  children: (data: Data) => ReactNode;
}) {
  if (query.error) return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data === undefined) return <PageLoader />;
  return children(query.data);
}
