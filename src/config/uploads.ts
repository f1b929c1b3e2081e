import { integer, MiB, section } from './settings.js';

/** Resumable uploads to nodes (src/modules/nodes/upload-*.ts). */
export const uploadSettings = section('Uploads', {
  uploadChunkBytes: integer('INFRAGATE_UPLOAD_CHUNK_BYTES', {
    default: 16 * MiB,
    min: 64 * 1024,
    max: 1024 * MiB,
    doc: 'Chunk size suggested to upload clients (`chunkSize` of an upload session)',
  }),
  uploadMaxChunkBytes: integer('INFRAGATE_UPLOAD_MAX_CHUNK_BYTES', {
    default: 64 * MiB,
    min: 64 * 1024,
    max: 4096 * MiB,
    doc: 'Largest chunk one PUT may carry (413 past it)',
  }),
  uploadMaxFileBytes: integer('INFRAGATE_UPLOAD_MAX_FILE_BYTES', {
    default: 1024 * 1024 * MiB,
    min: 1,
    max: 2 ** 50,
    doc: 'Largest file an upload session may announce (`totalBytes`)',
  }),
  uploadTtlSeconds: integer('INFRAGATE_UPLOAD_TTL_SECONDS', {
    default: 24 * 3600,
    min: 60,
    max: 30 * 24 * 3600,
    doc: 'An open upload session expires this long after its last activity; a sweep removes its temporary data',
  }),
  uploadSweepSeconds: integer('INFRAGATE_UPLOAD_SWEEP_SECONDS', {
    default: 60,
    min: 1,
    max: 24 * 3600,
    doc: 'How often expired uploads are swept',
  }),
  uploadLeaseSeconds: integer('INFRAGATE_UPLOAD_LEASE_SECONDS', {
    default: 60,
    min: 1,
    max: 3600,
    doc: 'How long a chunk writer holds a session; after a crash mid-chunk the session is free again after this',
  }),
});
