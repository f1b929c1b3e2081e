import os from 'node:os';
import { accessSettings } from './config/access.js';
import { agentSettings } from './config/agents.js';
import { acmeSettings, httpsSettings } from './config/certificates.js';
import { containerhostSettings } from './config/containerhost.js';
import { inferenceSettings, repohostSettings } from './config/integrations.js';
import { keyvalueSettings } from './config/keyvalue.js';
import { logSearchSettings } from './config/log-search.js';
import { notifySettings } from './config/notify.js';
import { pagesSettings } from './config/pages.js';
import { serverSettings } from './config/server.js';
import {
  type Env,
  type Reading,
  readSettings,
  type Setting,
  type Settings,
  type ValuesOf,
} from './config/settings.js';
import { siemSettings } from './config/siem.js';
import { uploadSettings } from './config/uploads.js';
import { ConfigError } from './config-error.js';

export { decodeMasterKey } from './config/server.js';
// loadConfig() throws it; callers catch it from here.
export { ConfigError };

/**
 * Every setting, declared once in src/config/ (env name, kind, default, bounds, meaning) and nested
 * here into the shape of Config. README's configuration table is generated from it (npm run
 * docs:config), in this order.
 */
export const configSettings = {
  ...serverSettings,
  ...accessSettings,
  https: httpsSettings,
  acme: acmeSettings,
  ...containerhostSettings,
  ...uploadSettings,
  ...agentSettings,
  keyvalue: keyvalueSettings,
  pages: pagesSettings,
  ...repohostSettings,
  ...inferenceSettings,
  siem: siemSettings,
  notify: notifySettings,
  logSearch: logSearchSettings,
} satisfies Settings;

export interface Config extends Omit<ValuesOf<typeof configSettings>, 'publicUrl'> {
  /** `INFRAGATE_PUBLIC_URL`, else where the listener is: `http://<HOST>:<PORT>`. */
  publicUrl: string;
}

export type EgressPolicy = Config['egress'];
export type HttpsConfig = Config['https'];
export type AcmeConfig = Config['acme'];
export type PagesConfig = Config['pages'];
export type SiemConfig = Config['siem'];
export type NotifyConfig = Config['notify'];

/**
 * A condition between settings, checked once each has been read, unless one of them was refused
 * (its value would be the default, not what the operator chose). README lists them by `doc`.
 */
interface Rule {
  involves: Setting<unknown>[];
  doc: string;
  /** The line reporting a configuration that breaks it, in the words of a refused setting. */
  problem(config: Config): string | undefined;
}

const { sendTimeoutMs: notifyTimeout, leaseSeconds: notifyLease } = notifySettings;
const { uploadChunkBytes: chunk, uploadMaxChunkBytes: maxChunk } = uploadSettings;
const { redirect, port: httpsPort } = httpsSettings;

export const configRules: Rule[] = [
  {
    involves: [notifyTimeout, notifyLease],
    doc: `\`${notifyTimeout.env}\` is shorter than \`${notifyLease.env}\`, or a slow send could be taken over by another worker and sent twice`,
    problem: ({ notify }) =>
      notify.sendTimeoutMs < notify.leaseSeconds * 1000
        ? undefined
        : `${notifyTimeout.env}=${notify.sendTimeoutMs} is invalid: expected less than ${notifyLease.env} (${notify.leaseSeconds} s), or a slow send could be taken over and sent twice`,
  },
  {
    involves: [chunk, maxChunk],
    doc: `\`${chunk.env}\` is at most \`${maxChunk.env}\``,
    problem: (config) =>
      config.uploadChunkBytes <= config.uploadMaxChunkBytes
        ? undefined
        : `${chunk.env}=${config.uploadChunkBytes} is invalid: expected at most ${maxChunk.env} (${config.uploadMaxChunkBytes})`,
  },
  {
    involves: [redirect, httpsPort],
    doc: `\`${redirect.env}\` needs \`${httpsPort.env}\``,
    problem: ({ https }) =>
      https.redirect && https.port === undefined
        ? `${redirect.env}=true is invalid without ${httpsPort.env}`
        : undefined,
  },
];

/** Reads the configuration from `env`; throws a ConfigError listing every bad value, one line each. */
export function loadConfig(env: Env = process.env): Config {
  const reading: Reading = { problems: [], refused: new Set() };
  const read = readSettings(configSettings, env, reading);
  const config = { ...read, publicUrl: read.publicUrl ?? listenerUrl(read.host, read.port) };
  for (const rule of configRules) {
    if (rule.involves.some((setting) => reading.refused.has(setting.env))) continue;
    const problem = rule.problem(config);
    if (problem !== undefined) reading.problems.push(problem);
  }
  if (reading.problems.length > 0) throw new ConfigError(reading.problems);
  return config;
}

/** A wildcard listen address is no place to link to, so the machine's host name stands in for it. */
function listenerUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? os.hostname() : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
