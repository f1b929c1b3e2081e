import fs from 'node:fs';
import path from 'node:path';
import { realPathOf } from '../core/host-paths.js';
import { GiB, integer, list, MiB, section, text } from './settings.js';

/** An absolute path as its real path (links followed, so a rule holds for the place, not the name). */
const realAbsolutePath = (entry: string) => (path.isAbsolute(entry) ? realPathOf(entry) : undefined);
const realDirectory = (entry: string) =>
  path.isAbsolute(entry) && fs.statSync(entry, { throwIfNoEntry: false })?.isDirectory()
    ? realPathOf(entry)
    : undefined;

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
  engineSockets: list('INFRAGATE_ENGINE_SOCKETS', {
    accepts: 'absolute paths, comma-separated',
    entry: realAbsolutePath,
    unset: 'unset (any socket)',
    doc: 'Unix sockets, or directories holding them, that engine nodes may name (compared by real path; checked on create, change and use)',
  }),
  nodeRoots: list('INFRAGATE_NODE_ROOTS', {
    accepts: 'absolute paths of existing directories, comma-separated',
    entry: realDirectory,
    unset: 'unset (anywhere outside the data directory)',
    doc: 'Directories a node root must be on or under (compared by real path; checked on create, change and every upload). Never on, in or above the data directory',
  }),
});
