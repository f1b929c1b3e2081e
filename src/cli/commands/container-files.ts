import type { Command } from 'commander';
import type { Static } from 'typebox';
import type { DirectoryListing } from '../../modules/containerhost/schemas/files.js';
import { type ApiContext, apiAction } from '../api-command.js';
import { putLocalFile, saveDownload } from '../local-files.js';
import { type Resource, recordRoute, resourceCommand, unwrap } from '../resource.js';

/** Files in a container (through the engine's archive API): list, download, upload, delete, mkdir. */

export function registerContainerFiles(area: Command, containers: Resource): void {
  const sub = area.command('files').description("files in a container's file system (--host)");
  const filesOf = async (context: ApiContext) =>
    `${await recordRoute(containers, context, context.args[0])}/files`;
  const command = (nameAndArgs: string, description: string) =>
    resourceCommand(sub, containers, nameAndArgs, description);

  apiAction(
    command('ls <container> [path]', 'list a directory (default /)').alias('list'),
    async (context) => {
      const query = { path: context.args[1] };
      const listing = unwrap(await context.api.call('GET', await filesOf(context), { query })) as Static<
        typeof DirectoryListing
      >;
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
      const route = `${await filesOf(context)}/content`;
      const response = await context.api.fetch('GET', route, { query: { path: context.args[1] } });
      await saveDownload(context, response.bytes, context.opts.output);
    },
  );
  apiAction(
    command(
      'put <container> <path> <file>',
      'upload a local file (- for standard input) to a path in the container, replacing what is there',
    ),
    async (context) => {
      const [container, path, file] = context.args as [string, string, string];
      await putLocalFile(context, `${await filesOf(context)}/content`, {
        file,
        path,
        where: `${container}:${path}`,
      });
    },
  );
  apiAction(
    command('rm <container> <path>', 'delete a file or an empty directory (in a running container)').option(
      '-r, --recursive',
      'delete a directory with everything in it',
    ),
    async (context) => {
      const [container, path] = context.args as [string, string];
      const query = { path, recursive: context.opts.recursive };
      const answer = await context.api.call('DELETE', await filesOf(context), { query });
      context.out.done(answer, `deleted ${container}:${path}`);
    },
  );
  apiAction(
    command('mkdir <container> <path>', 'create a directory (and missing parents)'),
    async (context) => {
      const [container, path] = context.args as [string, string];
      const json = { path };
      const answer = await context.api.call('POST', `${await filesOf(context)}/mkdir`, { json });
      context.out.done(answer, `created ${container}:${path}`);
    },
  );
}
