import type { Command } from 'commander';
import { apiAction } from '../api-command.js';
import { putLocalFile, saveDownload } from '../local-files.js';
import { type Resource, recordParams, resourceCommand } from '../resource.js';

/** Files in a container (through the engine's archive API): list, download, upload, delete, mkdir. */

type Containers = Resource<'/api/containerhost/nodes/{nodeId}/containers', 'containerId'>;

export function registerContainerFiles(area: Command, containers: Containers): void {
  const sub = area.command('files').description("files in a container's file system (--host)");
  const command = (nameAndArgs: string, description: string) =>
    resourceCommand(sub, containers, nameAndArgs, description);

  apiAction(
    command('ls <container> [path]', 'list a directory (default /)').alias('list'),
    async (context) => {
      const [container, path]: [string, string | undefined] = context.args;
      const { data: listing } = await context.api.call(
        'GET',
        '/api/containerhost/nodes/{nodeId}/containers/{containerId}/files',
        { path: await recordParams(containers, context, container), query: { path } },
      );
      if (context.out.json) return context.out.record(listing);
      context.out.list(listing.entries, ['name', 'type', 'size', 'mode', 'mtime', 'linkTarget']);
      if (listing.truncated)
        process.stderr.write('(the listing stopped early: the directory is too large)\n');
    },
  );
  apiAction(
    command('get <container> <path>', 'download a file to standard output, or to a file with -o').option(
      '-o, --output <file>',
      'write to this file instead of standard output',
    ),
    async (context) => {
      const [container, path]: [string, string] = context.args;
      const bytes = await context.api.download(
        '/api/containerhost/nodes/{nodeId}/containers/{containerId}/files/content',
        { path: await recordParams(containers, context, container), query: { path } },
      );
      await saveDownload(context, bytes, context.opts.output);
    },
  );
  apiAction(
    command(
      'put <container> <path> <file>',
      'upload a local file (- for standard input) to a path in the container, replacing what is there',
    ),
    async (context) => {
      const [container, path, file]: [string, string, string] = context.args;
      const params = await recordParams(containers, context, container);
      await putLocalFile(context, { file, path, where: `${container}:${path}` }, (upload) =>
        context.api.call('PUT', '/api/containerhost/nodes/{nodeId}/containers/{containerId}/files/content', {
          path: params,
          ...upload,
        }),
      );
    },
  );
  apiAction(
    command('rm <container> <path>', 'delete a file or an empty directory (in a running container)').option(
      '-r, --recursive',
      'delete a directory with everything in it',
    ),
    async (context) => {
      const [container, path]: [string, string] = context.args;
      const answer = await context.api.call(
        'DELETE',
        '/api/containerhost/nodes/{nodeId}/containers/{containerId}/files',
        {
          path: await recordParams(containers, context, container),
          query: { path, recursive: context.opts.recursive },
        },
      );
      context.out.done(answer, `deleted ${container}:${path}`);
    },
  );
  apiAction(
    command('mkdir <container> <path>', 'create a directory (and missing parents)'),
    async (context) => {
      const [container, path]: [string, string] = context.args;
      const answer = await context.api.call(
        'POST',
        '/api/containerhost/nodes/{nodeId}/containers/{containerId}/files/mkdir',
        { path: await recordParams(containers, context, container), json: { path } },
      );
      context.out.done(answer, `created ${container}:${path}`);
    },
  );
}
