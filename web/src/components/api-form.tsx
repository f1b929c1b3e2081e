import { Alert, Box, Button, Group, Stack } from '@mantine/core';
import { type FormValidateInput, useForm } from '@mantine/form';
import { type FormEventHandler, type ReactNode, useState } from 'react';
import { type FieldLabels, formErrors, type ReasonFields } from '../api/errors';
import { notifyDroppedSecrets } from './notify';

interface ApiFormOptions<Values extends Record<string, unknown>, Result> {
  initialValues: Values;
  /** Checks worth making before asking the gateway (it checks everything again). */
  validate?: FormValidateInput<Values>;
  /** The API call: `(values) => call(api.POST('/api/…', {body: values}))`. */
  submit: (values: Values) => Promise<Result>;
  /** After the gateway accepted: close the dialog, invalidate lists, toast. */
  onDone?: (result: Result, values: Values) => void | Promise<void>;
  /** Refusals whose `details.reason` is about one field: `{SLUG_TAKEN: 'slug'}`. */
  reasonFields?: ReasonFields;
  /** How the form labels fields whose key does not say it (`{'filters.nodeId': 'Container-host node'}`). */
  fieldLabels?: FieldLabels;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** The keys of a form's fields, nested ones too: `{filters: {nodeId}}` → `filters`, `filters.nodeId`. */
export function fieldKeys(values: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(values).flatMap(([key, value]) => [
    `${prefix}${key}`,
    ...(isPlainObject(value) ? fieldKeys(value, `${prefix}${key}.`) : []),
  ]);
}

/**
 * A form whose refusals land where they belong: each validation issue of the gateway's answer next
 * to its field, the message (and anything no field shows) in the banner above the form.
 */
export function useApiForm<Values extends Record<string, unknown>, Result>(
  options: ApiFormOptions<Values, Result>,
) {
  const form = useForm<Values>({
    initialValues: options.initialValues,
    ...(options.validate ? { validate: options.validate } : {}),
  });
  const [banner, setBanner] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = form.onSubmit(async (values) => {
    setBanner(undefined);
    setSubmitting(true);
    try {
      const result = await options.submit(values);
      notifyDroppedSecrets(result);
      await options.onDone?.(result, values);
    } catch (error) {
      const mapped = formErrors(error, fieldKeys(values), options.reasonFields, options.fieldLabels);
      form.setErrors(mapped.fields);
      setBanner(mapped.banner);
    } finally {
      setSubmitting(false);
    }
  });

  return { form, banner, submitting, onSubmit };
}

/** The banner above a form: why the gateway refused it. */
export function FormBanner({
  message,
  title = 'Not saved',
}: {
  message: string | undefined;
  title?: string;
}) {
  if (!message) return null;
  return (
    <Alert color="red" role="alert" title={title}>
      {message}
    </Alert>
  );
}

/** The foot of a dialog's form: Cancel (or Done, once it did its work), and the submit button named for what it does. */
export function FormActions({
  submitLabel,
  submitting,
  onCancel,
  cancelLabel = 'Cancel',
}: {
  submitLabel: string;
  submitting: boolean;
  onCancel: () => void;
  cancelLabel?: string;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button type="submit" loading={submitting}>
        {submitLabel}
      </Button>
    </Group>
  );
}

/** A one-field form saved on its own (a line of a settings dialog): banner, field, button beside it. */
export function InlineForm({
  onSubmit,
  banner,
  submitting,
  submitLabel,
  children,
}: {
  onSubmit: FormEventHandler<HTMLFormElement>;
  banner: string | undefined;
  submitting: boolean;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="xs">
        <FormBanner message={banner} />
        <Group align="flex-end">
          <Box style={{ flex: 1 }}>{children}</Box>
          <Button type="submit" variant="light" loading={submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
