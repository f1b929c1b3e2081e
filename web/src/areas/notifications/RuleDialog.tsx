import {
  Modal,
  MultiSelect,
  NumberInput,
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
import { FilterInput } from './FilterInput';
import { NOTIFICATIONS_KEY, type Rule, useChannelChoices, useEvents } from './queries';
import {
  FILTER_LABELS,
  type FilterKey,
  newRule,
  RULE_FIELD_LABELS,
  ruleChanges,
  ruleValues,
} from './rule-form';

/** Creates an alert rule, or (given one) changes it: which event goes to which channels, and when. */
export function RuleDialog({ rule, onClose }: { rule?: Rule; onClose: () => void }) {
  const queryClient = useQueryClient();
  const events = useEvents().data?.data ?? [];
  const channels = useChannelChoices().data?.data ?? [];
  const { form, banner, submitting, onSubmit } = useApiForm({
    initialValues: ruleValues(rule),
    fieldLabels: RULE_FIELD_LABELS,
    submit: (values) => {
      const event = events.find((candidate) => candidate.kind === values.event);
      return rule
        ? call(
            api.PATCH('/api/notifications/rules/{id}', {
              params: { path: { id: rule.id } },
              body: ruleChanges(values, event),
            }),
          )
        : call(api.POST('/api/notifications/rules', { body: newRule(values, event) }));
    },
    onDone: async ({ data }) => {
      notifySuccess(rule ? `Saved ${data.name}.` : `Created the rule ${data.name}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
    },
  });
  const event = events.find((candidate) => candidate.kind === form.values.event);
  return (
    <Modal opened onClose={onClose} title={rule ? `Edit ${rule.name}` : 'Create a rule'} size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <FormBanner message={banner} />
          <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
          <Select
            label="Event"
            placeholder="Choose what to be told about"
            data={events.map((candidate) => ({ value: candidate.kind, label: candidate.kind }))}
            allowDeselect={false}
            searchable
            {...form.getInputProps('event')}
          />
          {event && (
            <Text size="sm" c="dimmed">
              {event.description}.
            </Text>
          )}
          <MultiSelect
            label="Channels"
            placeholder={channels.length === 0 ? 'Create a channel first' : 'Choose channels'}
            data={channels.map((channel) => ({ value: channel.id, label: channel.name }))}
            searchable
            {...form.getInputProps('channelIds')}
          />
          {event?.filters.map((key) => (
            <FilterInput
              key={key}
              filter={key as FilterKey}
              label={FILTER_LABELS[key as FilterKey] ?? key}
              inputProps={form.getInputProps(`filters.${key}`)}
            />
          ))}
          {event?.mode === 'deadline' && (
            <TagsInput
              label="Days before expiry"
              description={`Notify once as each is crossed; empty for ${event.defaultWithinDays?.join(', ')}`}
              {...form.getInputProps('withinDays')}
            />
          )}
          {event?.mode === 'condition' && (
            <NumberInput
              label="Remind every (minutes)"
              description="While the condition lasts; empty for no reminders"
              min={1}
              max={43200}
              allowDecimal={false}
              {...form.getInputProps('renotifyMinutes')}
            />
          )}
          <Switch label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <FormActions
            submitLabel={rule ? 'Save rule' : 'Create rule'}
            submitting={submitting}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
