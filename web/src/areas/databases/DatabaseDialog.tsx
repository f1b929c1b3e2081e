import { Modal, NumberInput, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Body } from '../../api/types';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { StoredSecretInput } from '../../components/StoredSecretInput';
import { DATABASES_KEY, type Database } from './queries';

type Registration = Body<'/api/databases', 'post'>;

interface Values extends Record<string, unknown> {
  name: string;
  url: string;
  username: string;
  password: string;
  removePassword: boolean;
  dbIndex: number | string;
  allowDangerous: boolean;
  rejectUnauthorized: boolean;
  caPem: string;
  serverName: string;
}

function initialValues(database?: Database): Values {
  return {
    name: database?.name ?? '',
    url: database?.url ?? '',
    username: database?.username ?? '',
    password: '',
    removePassword: false,
    dbIndex: database?.dbIndex ?? '',
    allowDangerous: database?.allowDangerous ?? false,
    rejectUnauthorized: database?.tls?.rejectUnauthorized ?? true,
    caPem: database?.tls?.caPem ?? '',
    serverName: database?.tls?.serverName ?? '',
  };
}

const usesTls = (url: string) => url.trim().toLowerCase().startsWith('rediss://');

/** The fields both a new registration and a change send; the password only when one was typed. */
function registration(values: Values): Omit<Registration, 'type'> {
  return {
    name: values.name,
    url: values.url.trim(),
    username: values.username || null,
    ...(values.password ? { password: values.password } : {}),
    ...(typeof values.dbIndex === 'number' ? { dbIndex: values.dbIndex } : {}),
    allowDangerous: values.allowDangerous,
    tls: usesTls(values.url)
      ? {
          rejectUnauthorized: values.rejectUnauthorized,
          caPem: values.caPem || null,
          serverName: values.serverName || null,
        }
      : null,
  };
}

/** Registers a key-value database, or (given one) changes its registration. */
export function DatabaseDialog({ database, onClose }: { database?: Database; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: initialValues(database),
    submit: (values) => {
      const fields = registration(values);
      if (!database) return call(api.POST('/api/databases', { body: { ...fields, type: 'keyvalue' } }));
      return call(
        api.PATCH('/api/databases/{id}', {
          params: { path: { id: database.id } },
          body: { ...fields, ...(values.removePassword ? { password: null } : {}) },
        }),
      );
    },
    onDone: async ({ data }) => {
      notifySuccess(database ? `Saved ${data.name}.` : `Registered ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: DATABASES_KEY });
    },
  });
  const { values } = form;
  return (
    <Modal opened onClose={onClose} title={database ? `Edit ${database.name}` : 'Add a database'} size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <TextInput
            label="URL"
            description="redis://host:port/db, or rediss:// for TLS; no user or password in it"
            placeholder="redis://cache.internal:6379/0"
            {...form.getInputProps('url')}
          />
          <TextInput
            label="Username"
            description="The ACL user; leave empty for the default user"
            autoComplete="off"
            {...form.getInputProps('username')}
          />
          <StoredSecretInput
            label="Password"
            description={
              database?.hasPassword
                ? 'A password is set; type a new one to replace it, or leave empty to keep it (another server in the URL drops it)'
                : 'Stored encrypted; never shown again'
            }
            input={form.getInputProps('password')}
            removal={
              database?.hasPassword
                ? {
                    label: 'Remove the password',
                    input: form.getInputProps('removePassword', { type: 'checkbox' }),
                  }
                : undefined
            }
          />
          <NumberInput
            label="Database number"
            description="Leave empty to use the URL's /N, or 0"
            min={0}
            max={1023}
            allowDecimal={false}
            {...form.getInputProps('dbIndex')}
          />
          {usesTls(values.url) && (
            <>
              <Switch
                label="Verify the server's certificate"
                {...form.getInputProps('rejectUnauthorized', { type: 'checkbox' })}
              />
              <Textarea
                label="CA certificates (PEM)"
                description="Trust this CA bundle for the server's certificate"
                autosize
                minRows={2}
                maxRows={8}
                ff="monospace"
                {...form.getInputProps('caPem')}
              />
              <TextInput
                label="Server name"
                description="The name to verify and send as SNI, when it differs from the URL's host"
                {...form.getInputProps('serverName')}
              />
            </>
          )}
          <Switch
            label="Allow admin and dangerous commands (FLUSHALL, CONFIG SET …)"
            description="Callers also need databases:admin"
            {...form.getInputProps('allowDangerous', { type: 'checkbox' })}
          />
          <FormActions
            submitLabel={database ? 'Save database' : 'Add database'}
            submitting={submitting}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
