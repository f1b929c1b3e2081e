import type { Command } from 'commander';
import { apiAction } from '../api-command.js';
import { text } from '../flags.js';
import {
  crudCommands,
  deleteCommand,
  getCommand,
  lsCommand,
  type Resource,
  recordRoute,
} from '../resource.js';
import { runUpload, type UploadOptions } from '../upload.js';

/** Storage nodes (`/api/nodes`), their upload sessions, and the resumable `upload` command. */
const nodes: Resource = { noun: 'node', route: '/api/nodes' };

const uploads: Resource = {
  noun: 'upload',
  route: async (context) => `${await recordRoute(nodes, context, context.opts.node)}/files/uploads`,
  lookup: 'as-is',
  scope: [
    { flags: '--node <node>', field: 'node', description: 'storage node (name or id)', required: true },
  ],
};

const nodeFlags = (creating: boolean) => [
  text('--name <name>', 'name', 'unique name', creating),
  text('--root-path <path>', 'rootPath', 'directory on the gateway host that uploads go under', creating),
];

export function registerNodes(program: Command): void {
  const area = program
    .command('nodes')
    .description('storage nodes that receive file uploads (nodes:view|manage)');
  crudCommands(area, nodes, {
    list: {
      columns: ['name', 'rootPath', 'id'],
      filters: [text('--q <text>', 'q', 'substring of the name')],
    },
    create: { flags: nodeFlags(true) },
    update: { flags: nodeFlags(false) },
  });

  const sub = area.command('uploads').description("a node's upload sessions (--node)");
  lsCommand(sub, uploads, {
    columns: ['path', 'status', 'receivedBytes', 'totalBytes', 'uploadId'],
    filters: [text('--status <status>', 'status', 'open, complete, failed, aborted or expired')],
  });
  getCommand(sub, uploads);
  deleteCommand(sub, uploads, {
    name: 'abort',
    description: 'abort an open upload session',
    done: 'aborted',
  });

  apiAction(
    program
      .command('upload')
      .description('upload a file to a node with a progress bar; rerunning resumes an interrupted upload')
      .argument('<local-file>', 'the file to send')
      .argument('<remote-path>', 'path under the node root')
      .requiredOption('--node <node>', 'storage node (name or id)')
      .option('--overwrite', 'replace an existing file at <remote-path>')
      .option('--chunk-size <size>', "bytes per chunk (default: the server's suggestion; suffixes K, M, G)")
      .option('--limit-rate <rate>', 'send at most this many bytes per second (suffixes K, M, G)')
      .option('--no-checksum', "do not send the file's SHA-256 for verification")
      .option('--restart', 'forget a remembered session and start over'),
    async (context) => {
      const [localFile, remotePath] = context.args as [string, string];
      context.out.line(await runUpload(context.api, context.opts as UploadOptions, localFile, remotePath));
    },
  );
}
