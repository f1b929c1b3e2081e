import { GiB, integer, MiB, section, text } from './settings.js';

export const containerhostSettings = section('Container hosts', {
  dockerTimeoutMs: integer('INFRAGATE_DOCKER_TIMEOUT_MS', {
    default: 10_000,
    min: 100,
    max: 600_000,
    doc: 'Deadline of every container-engine call, in ms (streams: until the engine answers)',
  }),
  volumeWriteLimitBytes: integer('INFRAGATE_VOLUME_WRITE_LIMIT_BYTES', {
    default: 10 * MiB,
    min: 1,
    max: GiB,
    doc: 'Largest volume file write or container file upload, in bytes (413 past it)',
  }),
  healthCheckHistory: integer('INFRAGATE_HEALTHCHECK_HISTORY', {
    default: 50,
    min: 1,
    max: 10_000,
    doc: 'Results kept per saved container health check',
  }),
  helperImage: text('INFRAGATE_CONTAINERHOST_HELPER_IMAGE', {
    default: 'docker.io/library/busybox:latest',
    accepts: 'an image reference',
    doc: 'Image of the short-lived helper container used for volume files when a node names none (pulled when missing)',
  }),
});
