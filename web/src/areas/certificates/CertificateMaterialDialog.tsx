import { Checkbox, Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, call } from '../../api/client';
import { FormActions, FormBanner, useApiForm } from '../../components/api-form';
import { notifySuccess } from '../../components/notify';
import { TextFileInput } from '../../components/TextFileInput';
import { CERTIFICATES_KEY, type Certificate } from './queries';

const PEM_FILES = '.pem,.crt,.cer,.key,.txt';

/** The checks of the gateway that concern one field, shown next to it with their explanation. */
const REASON_FIELDS = {
  CERTIFICATE_NAME_TAKEN: 'name',
  KEY_MISMATCH: 'privateKeyPem',
  CERTIFICATE_EXPIRED: 'certificatePem',
  CERTIFICATE_NOT_YET_VALID: 'certificatePem',
  CHAIN_ORDER: 'chainPem',
  CHAIN_BROKEN: 'chainPem',
  CHAIN_CERTIFICATE_EXPIRED: 'chainPem',
};

const FIELD_LABELS = {
  certificatePem: 'The certificate',
  privateKeyPem: 'The private key',
  chainPem: 'The chain',
  privateKeyPassphrase: 'The key passphrase',
};

const blankMaterial = {
  certificatePem: '',
  privateKeyPem: '',
  chainPem: '',
  privateKeyPassphrase: '',
  allowExpired: false,
  allowNotYetValid: false,
};

/** Only what was filled in: an empty chain or passphrase is "none", not an empty PEM. */
function materialBody(material: typeof blankMaterial) {
  const { chainPem, privateKeyPassphrase, ...required } = material;
  return {
    ...required,
    ...(chainPem.trim() ? { chainPem } : {}),
    ...(privateKeyPassphrase ? { privateKeyPassphrase } : {}),
  };
}

/**
 * Uploads a certificate with its key and chain, or (given one) replaces an uploaded certificate's
 * material in place: same id and name, new certificate. Each PEM may be pasted or picked as a file;
 * the gateway's checks land next to the field they are about.
 */
export function CertificateMaterialDialog({
  opened,
  onClose,
  certificate,
}: {
  opened: boolean;
  onClose: () => void;
  certificate?: Certificate;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: { name: '', ...blankMaterial },
    reasonFields: REASON_FIELDS,
    fieldLabels: FIELD_LABELS,
    submit: ({ name, ...material }) =>
      certificate
        ? call(
            api.PUT('/api/ssl-certificates/{id}', {
              params: { path: { id: certificate.id } },
              body: materialBody(material),
            }),
          )
        : call(api.POST('/api/ssl-certificates/upload', { body: { name, ...materialBody(material) } })),
    onDone: async ({ data }) => {
      notifySuccess(certificate ? `Replaced the certificate of ${data.name}.` : `Uploaded ${data.name}.`);
      form.reset();
      onClose();
      await queryClient.invalidateQueries({ queryKey: CERTIFICATES_KEY });
      if (!certificate) navigate(`/certificates/${data.id}`);
    },
  });
  const title = certificate ? `Replace ${certificate.name}` : 'Upload a certificate';
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          {!certificate && (
            <TextInput
              label="Name"
              description="How the console and API call it, e.g. www-example"
              data-autofocus
              {...form.getInputProps('name')}
            />
          )}
          <TextFileInput
            label="Certificate"
            description="The server's certificate, one PEM block (-----BEGIN CERTIFICATE-----)"
            accept={PEM_FILES}
            {...form.getInputProps('certificatePem')}
          />
          <TextFileInput
            label="Private key"
            description="PEM: PKCS#8, PKCS#1 or SEC1, possibly encrypted. Stored sealed, never shown again."
            accept={PEM_FILES}
            {...form.getInputProps('privateKeyPem')}
          />
          <PasswordInput
            label="Key passphrase"
            description="Only for an encrypted key; used once and never stored"
            autoComplete="off"
            {...form.getInputProps('privateKeyPassphrase')}
          />
          <TextFileInput
            label="Chain"
            description="Optional: the intermediates, the certificate's issuer first (the root may be left out)"
            accept={PEM_FILES}
            {...form.getInputProps('chainPem')}
          />
          <Checkbox
            label="Accept an expired certificate"
            {...form.getInputProps('allowExpired', { type: 'checkbox' })}
          />
          <Checkbox
            label="Accept a certificate that is not valid yet"
            {...form.getInputProps('allowNotYetValid', { type: 'checkbox' })}
          />
          <FormActions
            submitLabel={certificate ? 'Replace certificate' : 'Upload certificate'}
            submitting={submitting}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
