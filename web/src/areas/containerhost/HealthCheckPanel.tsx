import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ApiError, describeError } from '../../api/errors';
import type { Answer, Body } from '../../api/types';
import { FormBanner, useApiForm } from '../../components/api-form';
import { ConfirmButton } from '../../components/ConfirmButton';
import { notifySuccess } from '../../components/notify';
import { RelativeTime } from '../../components/RelativeTime';
import { Section } from '../../components/Section';
import { HealthHistory } from './HealthHistory';
import { nodeKey, STATUS_COLORS } from './queries';

const CHECK_PATH = '/api/containerhost/nodes/{nodeId}/containers/{containerName}/health-check';
type Settings = Body<typeof CHECK_PATH, 'put'>;
type Saved = Answer<typeof CHECK_PATH, 'get'>['data'];
type TestResult = Answer<`${typeof CHECK_PATH}/test`, 'post'>['data'];

const numberOrNull = (value: number | string) => (typeof value === 'number' ? value : null);

function formValues(saved: Saved | undefined) {
  return {
    enabled: saved?.enabled ?? true,
    path: saved?.path ?? '/',
    hostPort: (saved?.hostPort ?? '') as number | string,
    containerPort: (saved?.containerPort ?? '') as number | string,
    statusMin: saved?.statusMin ?? 200,
    statusMax: saved?.statusMax ?? 399,
    intervalSeconds: saved?.intervalSeconds ?? 30,
    timeoutSeconds: saved?.timeoutSeconds ?? 5,
    slowThreshold: saved?.slowThreshold ?? 1000,
  };
}

function toSettings(values: ReturnType<typeof formValues>): Settings {
  return {
    ...values,
    hostPort: numberOrNull(values.hostPort),
    containerPort: numberOrNull(values.containerPort),
  };
}

function TestOutcome({ result }: { result: TestResult }) {
  return (
    <Alert color={STATUS_COLORS[result.status]} title={`Test: ${result.status}`} role="status">
      {result.url ?? 'no request made'}
      {result.httpStatus !== null && ` · HTTP ${result.httpStatus}`}
      {result.responseMs !== null && ` · ${result.responseMs} ms`}
      {result.error && ` · ${result.error}`}
    </Alert>
  );
}

function CheckForm({
  nodeId,
  containerName,
  saved,
}: {
  nodeId: string;
  containerName: string;
  saved: Saved | undefined;
}) {
  const queryClient = useQueryClient();
  const path = { nodeId, containerName };
  const [tested, setTested] = useState<TestResult | string | undefined>();
  const [testing, setTesting] = useState(false);
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: formValues(saved),
    submit: (values) => call(api.PUT(CHECK_PATH, { params: { path }, body: toSettings(values) })),
    onDone: async () => {
      notifySuccess(`Saved the health check of ${containerName}.`);
      await queryClient.invalidateQueries({ queryKey: [...nodeKey(nodeId), 'health', containerName] });
    },
  });
  const test = async () => {
    setTesting(true);
    try {
      const { data } = await call(
        api.POST(`${CHECK_PATH}/test`, { params: { path }, body: toSettings(form.values) }),
      );
      setTested(data);
    } catch (error) {
      setTested(describeError(error));
    } finally {
      setTesting(false);
    }
  };
  const remove = async () => {
    await call(api.DELETE(CHECK_PATH, { params: { path } }));
    notifySuccess(`Deleted the health check of ${containerName}.`);
    form.setValues(formValues(undefined));
    await queryClient.invalidateQueries({ queryKey: [...nodeKey(nodeId), 'health', containerName] });
  };
  const number = (label: string, field: keyof ReturnType<typeof formValues>, description?: string) => (
    <NumberInput
      label={label}
      description={description}
      allowDecimal={false}
      {...form.getInputProps(field)}
    />
  );
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <FormBanner message={banner} />
        <Checkbox label="Probe on a schedule" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="Path" {...form.getInputProps('path')} />
          {number('Host port', 'hostPort', 'Empty: the first published port')}
          {number('Container port', 'containerPort', 'Probed on the container’s IP')}
          {number('Lowest good status', 'statusMin')}
          {number('Highest good status', 'statusMax')}
          {number('Interval (seconds)', 'intervalSeconds')}
          {number('Timeout (seconds)', 'timeoutSeconds')}
          {number('Slow above (ms)', 'slowThreshold')}
        </SimpleGrid>
        {typeof tested === 'string' ? (
          <Alert color="red" title="Test refused" role="alert">
            {tested}
          </Alert>
        ) : (
          tested && <TestOutcome result={tested} />
        )}
        <Group gap="xs">
          <Button variant="default" onClick={test} loading={testing}>
            Test
          </Button>
          <Button type="submit" loading={submitting}>
            Save health check
          </Button>
          {saved && (
            <ConfirmButton
              label="Delete health check"
              title={`Delete the health check of ${containerName}?`}
              message="The schedule stops and its history goes."
              confirmLabel="Delete"
              onConfirm={remove}
            />
          )}
        </Group>
        {saved && (
          <Text size="xs" c="dimmed">
            Next probe <RelativeTime value={saved.nextRunAt} />
          </Text>
        )}
      </Stack>
    </form>
  );
}

/** A container's health check: its settings with a one-off **Test**, and its recent results as a chart. */
export function HealthCheckPanel({ nodeId, containerName }: { nodeId: string; containerName: string }) {
  const saved = useQuery({
    queryKey: [...nodeKey(nodeId), 'health', containerName],
    // No saved check is an answer too (404): the form starts from the defaults.
    queryFn: () =>
      call(api.GET(CHECK_PATH, { params: { path: { nodeId, containerName } } })).then(
        ({ data }) => data as Saved | null,
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        },
      ),
  });
  if (saved.error)
    return (
      <Alert color="red" role="alert">
        {describeError(saved.error)}
      </Alert>
    );
  if (saved.data === undefined) return null;
  return (
    <Stack>
      <Section title="Settings">
        <CheckForm
          key={saved.data?.updatedAt ?? 'new'}
          nodeId={nodeId}
          containerName={containerName}
          saved={saved.data ?? undefined}
        />
      </Section>
      {saved.data && <HealthHistory nodeId={nodeId} containerName={containerName} />}
      {saved.data === null && (
        <Badge variant="light" color="gray">
          No saved check yet
        </Badge>
      )}
    </Stack>
  );
}
