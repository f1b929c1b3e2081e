import os from 'node:os';
import type { Hello } from '../modules/nodes/agents/tunnel-frames.js';

/** What the agent tells the gateway about its host when a tunnel opens. */
export function hostFacts(): Hello['facts'] {
  return {
    hostname: os.hostname().slice(0, 255),
    os: `${os.type()} ${os.release()}`.slice(0, 255),
    arch: os.arch(),
    cpus: os.availableParallelism(),
    memoryBytes: os.totalmem(),
  };
}
