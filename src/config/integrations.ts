import { catalogFileProblems } from '../inference-catalog.js';
import { file, integer, section } from './settings.js';

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
});
