import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { notifyError, notifySuccess } from '../../components/notify';
import { CONNECTORS_KEY, type Connector, type TestReport } from './queries';

/** Re-tests a saved connector with its stored token; the outcome is recorded on the connector. */
export function useRetest() {
  const queryClient = useQueryClient();
  const [testing, setTesting] = useState<string | undefined>();
  const [report, setReport] = useState<TestReport | undefined>();
  const retest = async (connector: Connector) => {
    setTesting(connector.id);
    try {
      const { data } = await call(
        api.POST('/api/integrations/repohost/connectors/{id}/test', {
          params: { path: { id: connector.id } },
        }),
      );
      setReport(data);
      if (data.ok) notifySuccess(`${connector.name}: the test passed.`);
      await queryClient.invalidateQueries({ queryKey: CONNECTORS_KEY });
    } catch (error) {
      notifyError(error);
    } finally {
      setTesting(undefined);
    }
  };
  return { retest, testing, report };
}
