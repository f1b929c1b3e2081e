import { integer, MiB, section } from './settings.js';

/** The key-value database console (src/modules/keyvalue). */
export const keyvalueSettings = section('Key-value databases', {
  commandTimeoutMs: integer('INFRAGATE_KEYVALUE_COMMAND_TIMEOUT_MS', {
    default: 5000,
    min: 100,
    max: 600_000,
    doc: 'Longest a console command may run before it is answered with a timeout',
  }),
  connectTimeoutMs: integer('INFRAGATE_KEYVALUE_CONNECT_TIMEOUT_MS', {
    default: 3000,
    min: 100,
    max: 60_000,
    doc: 'Longest a connection attempt (TCP, TLS, AUTH) may take',
  }),
  maxReplyBytes: integer('INFRAGATE_KEYVALUE_MAX_REPLY_BYTES', {
    default: MiB,
    min: 1024,
    max: 64 * MiB,
    doc: 'Reply size (JSON bytes, approximately) past which a console result is cut (`truncated: true`)',
  }),
  poolSize: integer('INFRAGATE_KEYVALUE_POOL_SIZE', {
    default: 2,
    min: 1,
    max: 32,
    doc: 'Connections kept open per registered database; commands are pipelined over them',
  }),
});
