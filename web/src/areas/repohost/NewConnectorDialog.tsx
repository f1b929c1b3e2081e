import { Button, Group, Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, call } from '../../api/client';
import { formErrors } from '../../api/errors';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { AllowlistPicker } from './AllowlistPicker';
import { pickedEntries } from './allowlist';
import { PreviewSummary } from './PreviewSummary';
import { CONNECTORS_KEY, connectorPath, type Preview } from './queries';

interface Tested {
  baseUrl: string;
  token: string;
  preview: Preview;
}

/**
 * A new repository host in two steps: test the URL and token (nothing is stored), look at what the
 * token can do and see, pick the allowlist and a name, then save (the gateway tests once more).
 */
export function NewConnectorDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [tested, setTested] = useState<Tested | undefined>();
  const [testBanner, setTestBanner] = useState<string | undefined>();
  const [testing, setTesting] = useState(false);
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { baseUrl: '', token: '', name: '', allowlist: [] as string[] },
    submit: ({ name, baseUrl, token, allowlist }) =>
      call(
        api.POST('/api/integrations/repohost/connectors', {
          body: {
            name,
            baseUrl,
            token,
            allowlist: pickedEntries(tested?.preview.allowlistEntries ?? [], allowlist),
          },
        }),
      ),
    onDone: async ({ data }) => {
      notifySuccess(`Saved the connector ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: CONNECTORS_KEY });
      navigate(connectorPath(data.id));
    },
  });
  const { baseUrl, token } = form.values;
  const current = tested && tested.baseUrl === baseUrl && tested.token === token ? tested : undefined;

  const test = async () => {
    setTesting(true);
    setTestBanner(undefined);
    form.clearErrors();
    try {
      const { data } = await call(
        api.POST('/api/integrations/repohost/connectors/preview-test', { body: { baseUrl, token } }),
      );
      setTested({ baseUrl, token, preview: data });
      if (!form.values.name) form.setFieldValue('name', new URL(baseUrl).host);
    } catch (error) {
      setTested(undefined);
      const mapped = formErrors(error, ['baseUrl', 'token']);
      form.setErrors(mapped.fields);
      setTestBanner(mapped.banner);
    } finally {
      setTesting(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title="Add a repository host" size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={testBanner} title="Test failed" />
          <FormBanner message={banner} />
          <TextInput
            label="Base URL"
            description="The GitLab root, e.g. https://gitlab.example.com"
            data-autofocus
            {...form.getInputProps('baseUrl')}
          />
          <PasswordInput
            label="Access token"
            description="A personal access token; used for the test, stored encrypted only when you save"
            autoComplete="off"
            {...form.getInputProps('token')}
          />
          <Group justify="flex-end">
            <Button variant={current ? 'default' : 'filled'} loading={testing} onClick={() => void test()}>
              Test
            </Button>
          </Group>
          {current && (
            <>
              <PreviewSummary preview={current.preview} title="What the token can do" />
              <AllowlistPicker
                options={current.preview.allowlistEntries}
                description="The groups and projects this connector may act on"
                {...form.getInputProps('allowlist')}
              />
              <TextInput label="Name" {...form.getInputProps('name')} />
              <FormActions submitLabel="Save connector" submitting={submitting} onCancel={onClose} />
            </>
          )}
        </Stack>
      </form>
    </Modal>
  );
}
