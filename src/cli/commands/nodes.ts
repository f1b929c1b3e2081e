import type { Command } from 'commander';
import { apiAction } from '../api-command.js';
import { text } from '../flags.js';
import {
  actionCommand,
  crudCommands,
  deleteCommand,
  getCommand,
  idOf,
  lsCommand,
  resource,
} from '../resource.js';
import { runUpload } from '../upload.js';

/** Storage nodes (`/api/nodes`), their upload sessions, and the resumable `upload` command. */
const nodes = resource({ noun: 'node', list: '/api/nodes', id: 'id' });

const uploads = resource({
  noun: 'upload',
  list: '/api/nodes/{id}/files/uploads',
  id: 'uploadId',
  parents: async (context) => ({ id: await idOf(nodes, context, context.opts.node) }),
  lookup: 'as-is',
  scope: [
    { flags: '--node <node>', field: 'node', description: 'storage node (name or id)', required: true },
  ],
});

const nodeFlags = (creating: boolean) => [
  text('--name <name>', 'name', 'unique name', creating),
  text(
    '--root-path <path>',
    'rootPath',
    'directory on the gateway host that uploads go under (directory nodes)',
  ),
];

export function registerNodes(program: Command): void {
  const area = program
    .command('nodes')
    .description('storage nodes that receive file uploads (nodes:view|manage)');
  crudCommands(area, nodes, {
    list: {
      columns: ['name', 'kind', 'status', 'rootPath', 'id'],
      filters: [text('--q <text>', 'q', 'substring of the name')],
    },
    create: {
      flags: [
        ...nodeFlags(true),
        text(
          '--kind <kind>',
          'kind',
          'directory (default) or agent (answers the enrolment command to run on the host)',
        ),
      ],
    },
    update: { flags: nodeFlags(false) },
  });

  actionCommand(area, nodes, {
    name: 'revoke',
    description: 'revoke an agent node: its credential stops working and its tunnel closes',
    path: '/revoke',
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
      const [localFile, remotePath]: [string, string] = context.args;
      const { node, overwrite, chunkSize, limitRate, checksum, restart } = context.opts;
      const options = { node, overwrite, chunkSize, limitRate, checksum, restart };
      context.out.line(await runUpload(context.api, options, localFile, remotePath));
    },
  );
}
