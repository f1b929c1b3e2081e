import { describe, expect, it } from 'vitest';
import type { EventKind } from './queries';
import { newRule, ruleChanges, ruleValues } from './rule-form';

const expiring: EventKind = {
  kind: 'certificates.expiring',
  mode: 'deadline',
  description: 'expires soon',
  filters: ['certificateId'],
  okStates: [],
  defaultWithinDays: [30, 14, 7, 1],
};
const health: EventKind = {
  kind: 'containerhost.health_check.changed',
  mode: 'condition',
  description: 'health changed',
  filters: ['nodeId', 'containerName'],
  okStates: ['online', 'disabled'],
  defaultWithinDays: null,
};

describe('the rule a form describes', () => {
  it('sends thresholds for a deadline event and only the filters it takes', () => {
    const values = {
      ...ruleValues(),
      name: 'soon',
      event: expiring.kind,
      channelIds: ['c1'],
      withinDays: ['7', '1'],
      renotifyMinutes: 60,
      filters: { ...ruleValues().filters, certificateId: 'cert', containerName: 'web' },
    };
    expect(newRule(values, expiring)).toEqual({
      name: 'soon',
      event: 'certificates.expiring',
      channelIds: ['c1'],
      enabled: true,
      filters: { certificateId: 'cert' },
      withinDays: [7, 1],
    });
  });

  it('sends reminders for a condition event', () => {
    const values = {
      ...ruleValues(),
      name: 'down',
      event: health.kind,
      channelIds: ['c1'],
      renotifyMinutes: 30,
    };
    expect(newRule(values, health)).toMatchObject({ renotifyMinutes: 30 });
    expect(newRule(values, health)).not.toHaveProperty('withinDays');
  });

  it('clears what a change leaves empty', () => {
    const values = { ...ruleValues(), name: 'down', event: health.kind, channelIds: ['c1'] };
    expect(ruleChanges(values, health)).toEqual({
      name: 'down',
      event: 'containerhost.health_check.changed',
      channelIds: ['c1'],
      enabled: true,
      filters: null,
      renotifyMinutes: null,
    });
  });
});
