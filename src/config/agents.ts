import { integer, section } from './settings.js';

/** Agent nodes: enrolment and the agents' tunnels (src/modules/nodes/agents/). */
export const agentSettings = section('Agents', {
  agentEnrollmentTtlMinutes: integer('INFRAGATE_AGENT_ENROLLMENT_TTL_MINUTES', {
    default: 60,
    min: 1,
    max: 7 * 24 * 60,
    doc: 'How long an agent node’s one-time enrolment token can be exchanged for the agent’s credential',
  }),
  agentHeartbeatSeconds: integer('INFRAGATE_AGENT_HEARTBEAT_SECONDS', {
    default: 15,
    min: 1,
    max: 300,
    doc: 'How often the gateway pings each agent tunnel; a tunnel silent for three of these is closed, and its node marked offline',
  }),
});
