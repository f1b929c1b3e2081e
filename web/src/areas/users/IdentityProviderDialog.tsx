import {
  Button,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { StoredSecretInput } from '../../components/StoredSecretInput';
import {
  DEFAULT_SCOPES,
  formValuesOf,
  type IdentityProvider,
  NEW_PROVIDER,
  newProviderBody,
  providerChangeBody,
} from './identity-provider-form';
import { ADMIN_KEY, useGroups } from './queries';

/**
 * Adds an OpenID Connect provider or edits one (given). The gateway reads the issuer's discovery
 * document before saving; the client secret is write-only. Answers the saved provider to `onSaved`.
 */
export function IdentityProviderDialog({
  provider,
  onClose,
  onSaved,
}: {
  provider?: IdentityProvider;
  onClose: () => void;
  onSaved: (saved: IdentityProvider) => void;
}) {
  const queryClient = useQueryClient();
  const groups = useGroups();
  const groupNames = (groups.data?.data ?? []).map((group) => group.name);
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: provider ? formValuesOf(provider) : NEW_PROVIDER,
    submit: (values) =>
      provider
        ? call(
            api.PATCH('/api/admin/identity-providers/{id}', {
              params: { path: { id: provider.id } },
              body: providerChangeBody(values),
            }),
          )
        : call(api.POST('/api/admin/identity-providers', { body: newProviderBody(values) })),
    reasonFields: {
      IDENTITY_PROVIDER_NAME_TAKEN: 'name',
      ISSUER_DISCOVERY_FAILED: 'issuer',
      PROVIDER_UNREACHABLE: 'issuer',
      EGRESS_DENIED: 'issuer',
    },
    onDone: async ({ data }) => {
      notifySuccess(provider ? `Saved ${data.name}.` : `Added ${data.name}.`);
      onSaved(data);
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    },
  });
  const mappingError = form.errors.groupMap;
  return (
    <Modal
      opened
      onClose={onClose}
      title={provider ? `Edit ${provider.name}` : 'Add an identity provider'}
      size="lg"
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput
            label="Name"
            description="On the sign-in button"
            data-autofocus
            {...form.getInputProps('name')}
          />
          <TextInput
            label="Issuer URL"
            description="https; the gateway reads its /.well-known/openid-configuration before saving"
            {...form.getInputProps('issuer')}
          />
          <TextInput label="Client ID" {...form.getInputProps('clientId')} />
          {provider ? (
            <StoredSecretInput
              label="Client secret"
              description="A secret is stored; type a new one to replace it. A new issuer URL drops it unless you type it again"
              input={form.getInputProps('clientSecret')}
            />
          ) : (
            <PasswordInput
              label="Client secret"
              autoComplete="new-password"
              {...form.getInputProps('clientSecret')}
            />
          )}
          <TagsInput
            label="Scopes"
            description="Asked of the provider; openid is always added"
            data={[...DEFAULT_SCOPES, 'groups']}
            {...form.getInputProps('scopes')}
          />
          <Switch
            label="Create accounts at their first sign-in"
            {...form.getInputProps('autoCreateUsers', { type: 'checkbox' })}
          />
          <TagsInput
            label="Allowed email domains"
            description="Only emails under these domains sign in (e.g. example.com); empty: any"
            {...form.getInputProps('allowedEmailDomains')}
          />
          <TextInput
            label="Groups claim"
            description="The ID token claim listing the user's groups at the provider (e.g. groups)"
            {...form.getInputProps('groupsClaim')}
          />
          <Text size="sm" fw={500}>
            Group mapping
          </Text>
          <Text size="xs" c="dimmed">
            At every sign-in the first line whose provider group the user has decides their gateway group;
            else the default group.
          </Text>
          {form.values.groupMap.map((line, index) => (
            // Lines are edited in place and removed by position; the index is their identity here.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <Group key={index} align="flex-end" gap="xs">
              <TextInput
                label={`Provider group ${index + 1}`}
                style={{ flex: 1, minWidth: 140 }}
                {...form.getInputProps(`groupMap.${index}.providerGroup`)}
              />
              <Select
                label={`Gateway group ${index + 1}`}
                data={groupNames}
                allowDeselect={false}
                style={{ flex: 1, minWidth: 140 }}
                {...form.getInputProps(`groupMap.${index}.group`)}
              />
              <Button
                variant="subtle"
                color="red"
                size="xs"
                mb={4}
                aria-label={`Remove mapping ${index + 1}${line.providerGroup ? ` (${line.providerGroup})` : ''}`}
                onClick={() => form.removeListItem('groupMap', index)}
              >
                Remove
              </Button>
            </Group>
          ))}
          {typeof mappingError === 'string' && (
            <Text size="sm" c="red" role="alert">
              {mappingError}
            </Text>
          )}
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() => form.insertListItem('groupMap', { providerGroup: '', group: '' })}
            >
              Add mapping
            </Button>
          </Group>
          <Select
            label="Default group"
            description="For a user no mapping line places; a new account needs one or the other"
            data={groupNames}
            clearable
            {...form.getInputProps('defaultGroup')}
          />
          <Switch
            label="Offer it on the sign-in page"
            {...form.getInputProps('enabled', { type: 'checkbox' })}
          />
          <FormActions
            submitLabel={provider ? 'Save provider' : 'Add provider'}
            submitting={submitting}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
