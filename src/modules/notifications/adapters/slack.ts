import type { EgressGuard } from '../../../core/egress-guard.js';
import { asDeliveryError, type Outbound, postJson } from './outbound.js';

/** Slack's text format reserves these three characters (Mattermost and Rocket.Chat accept the same). */
const escapeSlack = (text: string) =>
  text.replace(/[&<>]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[char]!);

/** The incoming-webhook payload: a bold title, the details, and the console link. */
export function slackPayload(outbound: Outbound): { text: string } {
  const { message } = outbound;
  const text = [
    `*${escapeSlack(message.title)}*`,
    ...message.lines.map(([label, value]) => `${escapeSlack(label)}: ${escapeSlack(value)}`),
    `<${message.link}|Open in infragate>`,
  ].join('\n');
  return { text };
}

/** POSTs to a Slack-compatible incoming webhook. The URL is the credential and never appears in an error. */
export function sendSlack(egress: EgressGuard, url: string, outbound: Outbound) {
  return asDeliveryError(
    () =>
      postJson(egress, url, JSON.stringify(slackPayload(outbound)), {}, outbound.timeoutMs, 'Slack webhook'),
    url,
  );
}
