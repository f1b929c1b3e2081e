import type { Command } from 'commander';
import { apiAction } from '../api-command.js';
import { bool, type Flag, integer, text } from '../flags.js';
import {
  actionCommand,
  crudCommands,
  deleteCommand,
  getCommand,
  lsCommand,
  type Resource,
  recordRoute,
  resourceCommand,
  unwrap,
} from '../resource.js';
import { deploy } from './pages-deploy.js';

/** Pages: static site projects, their deployments, and `deploy` from a directory or an archive. */
const projects: Resource = { noun: 'project', route: '/api/pages', lookup: { by: 'slug', search: 'q' } };

const projectFlag: Flag = {
  flags: '--project <project>',
  field: 'project',
  description: 'pages project (slug or id)',
  required: true,
};

const deployments: Resource = {
  noun: 'deployment',
  route: async (context) => `${await recordRoute(projects, context, context.opts.project)}/deployments`,
  lookup: 'as-is',
  scope: [projectFlag],
};

const projectFlags = (creating: boolean): Flag[] => [
  text('--name <name>', 'name', 'display name', creating),
  text('--slug <slug>', 'slug', 'URL name: lowercase letters, digits, hyphens', creating),
  bool('spa-fallback', 'spaFallback', 'serve /index.html for paths that match no file'),
];

function registerDeployments(area: Command): void {
  const sub = area.command('deployments').description("a project's deployments (--project)");
  lsCommand(sub, deployments, {
    columns: ['createdAt', 'production', 'pinned', 'fileCount', 'sizeBytes', 'id'],
    filters: [{ flags: '--pinned', field: 'pinned', description: 'only pinned deployments' }],
    description: 'list deployments, newest first',
  });
  getCommand(sub, deployments);
  deleteCommand(sub, deployments);
  lsCommand(
    sub,
    {
      ...deployments,
      route: async (context) => `${await recordRoute(deployments, context, context.args[0])}/files`,
    },
    {
      name: 'files <deployment>',
      columns: ['path', 'sizeBytes', 'contentType', 'sha256'],
      description: 'files of a deployment',
    },
  );
  actionCommand(area, deployments, {
    name: 'promote',
    path: '/promote',
    description: 'make a deployment production (also to roll back)',
  });
  for (const pinned of [true, false])
    actionCommand(area, deployments, {
      name: pinned ? 'pin' : 'unpin',
      method: 'PATCH',
      path: '/pin',
      fromArgs: () => ({ pinned }),
      description: pinned
        ? 'keep a deployment forever (retention skips it)'
        : 'let retention remove a deployment again',
    });
}

export function registerPages(program: Command): void {
  const area = program
    .command('pages')
    .description('static sites served at /sites/<slug>/ (pages:view|manage)');
  crudCommands(area, projects, {
    list: {
      columns: ['slug', 'name', 'deploymentCount', 'productionDeploymentId', 'id'],
      filters: [text('--q <text>', 'q', 'substring of the name or slug')],
    },
    create: { flags: projectFlags(true) },
    update: { flags: projectFlags(false) },
  });
  registerDeployments(area);
  apiAction(
    resourceCommand(
      area,
      { ...projects, scope: [projectFlag] },
      'deploy <source>',
      'upload a directory (packed as tar.gz) or an archive (.tar.gz, .tar, .zip) as a new deployment',
    )
      .option('--no-promote', 'store the deployment without making it production')
      .option('--strip-components <n>', 'drop this many leading directories from archive names', (value) =>
        integer(value, '--strip-components'),
      ),
    async (context) => {
      const route = await recordRoute(projects, context, context.opts.project);
      const project = unwrap(await context.api.call('GET', route)) as { slug: string };
      await deploy(context, { route, slug: project.slug }, context.args[0]);
    },
  );
}
