import { catalogFileProblems } from '../inference-catalog.js';
import { file, integer, MiB, section } from './settings.js';

export const repohostSettings = section('Repository hosts', {
  repohostTimeoutMs: integer('INFRAGATE_REPOHOST_TIMEOUT_MS', {
    default: 15_000,
    min: 100,
    max: 300_000,
    doc: 'Deadline of one repository host test (all its GitLab calls together), in ms',
  }),
  repohostPreviewMaxItems: integer('INFRAGATE_REPOHOST_PREVIEW_MAX_ITEMS', {
    default: 1000,
    min: 1,
    max: 100_000,
    doc: 'Most groups and most projects a repository host test lists (pagination stops there)',
  }),
});

export const inferenceSettings = section('Inference', {
  inferenceCatalogPath: file('INFRAGATE_INFERENCE_CATALOG', {
    unset: 'unset (the built-in catalog/inference-providers.json)',
    problems: catalogFileProblems,
    doc: "An operator's inference provider catalog (JSON), checked at start",
  }),
  inferenceMaxBodyBytes: integer('INFRAGATE_INFERENCE_MAX_BODY_BYTES', {
    default: 20 * MiB,
    min: 1024,
    max: 512 * MiB,
    doc: 'Largest request body of the inference data plane (413 in the caller protocol past it), in bytes',
  }),
  inferenceUpstreamTimeoutMs: integer('INFRAGATE_INFERENCE_UPSTREAM_TIMEOUT_MS', {
    default: 60_000,
    min: 100,
    max: 3_600_000,
    doc: "How long the data plane waits for a provider's first byte before the next target is tried, in ms",
  }),
  inferenceCircuitFailures: integer('INFRAGATE_INFERENCE_CIRCUIT_FAILURES', {
    default: 3,
    min: 1,
    max: 1000,
    doc: 'Failed calls in a row after which a connection is skipped by the data plane for the cool-down',
  }),
  inferenceCircuitCoolDownMs: integer('INFRAGATE_INFERENCE_CIRCUIT_COOLDOWN_MS', {
    default: 30_000,
    min: 100,
    max: 3_600_000,
    doc: 'How long a connection whose circuit opened is skipped, in ms',
  }),
});
