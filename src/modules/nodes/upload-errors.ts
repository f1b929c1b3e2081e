import { conflict, validationError } from '../../core/errors.js';
import type { UploadRow } from './upload-rows.js';

/** A chunk that would end past the announced size (400 on `body`). */
export const pastTotal = (offset: number, length: number | undefined, total: number) =>
  validationError([
    {
      path: ['body'],
      message:
        length === undefined
          ? `the chunk goes past totalBytes (${total}) from offset ${offset}`
          : `a chunk of ${length} bytes at offset ${offset} goes past totalBytes (${total})`,
    },
  ]);

/** A chunk over the per-request limit (413). */
export const chunkTooLarge = (limit: number) =>
  validationError([{ path: ['body'], message: `a chunk may carry at most ${limit} bytes` }], 413);

/** Completion asked for while bytes are missing (409 with the resume point). */
export const incomplete = (row: UploadRow) =>
  conflict('UPLOAD_INCOMPLETE', {
    receivedBytes: row.receivedBytes,
    totalBytes: row.totalBytes,
    expectedOffset: row.receivedBytes,
    explanation: `${row.totalBytes - row.receivedBytes} bytes are still missing`,
  });
