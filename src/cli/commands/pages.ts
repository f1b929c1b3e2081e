import type { Command } from 'commander';
import { looksLikeDeployToken } from '../../modules/pages/deploy-token-format.js';
import { type ApiContext, apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { bool, integer, text } from '../flags.js';
import {
  actionCommand,
  createCommand,
  crudCommands,
  deleteCommand,
  getCommand,
  lsCommand,
  recordParams,
  resource,
  resourceCommand,
} from '../resource.js';
import { type DeployProject, deploy } from './pages-deploy.js';
import { registerDomains } from './pages-domains.js';
import { onProject, projectFlag, projects } from './pages-projects.js';

/** Pages: static site projects, their deployments, and `deploy` from a directory or an archive. */
const deployments = resource({
  noun: 'deployment',
  list: '/api/pages/{projectId}/deployments',
  id: 'deploymentId',
  lookup: 'as-is',
  ...onProject,
});
const deployTokens = resource({
  noun: 'token',
  list: '/api/pages/{projectId}/deploy-tokens',
  id: 'tokenId',
  lookup: { by: 'name' },
  ...onProject,
});

const projectFlags = (creating: boolean) => [
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
    resource({
      noun: 'file',
      list: '/api/pages/{projectId}/deployments/{deploymentId}/files',
      parents: (context) => recordParams(deployments, context, context.args[0]),
      scope: [projectFlag],
    }),
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

/**
 * The project `--project` names. A deploy token (CI) may not list or read projects, so it asks the
 * gateway which project it deploys and must be given that one (by slug or id).
 */
async function deployProject(context: ApiContext, ref: string): Promise<DeployProject> {
  if (!looksLikeDeployToken(context.target.token)) {
    const path = await recordParams(projects, context, ref);
    return (await context.api.call('GET', '/api/pages/{projectId}', { path })).data;
  }
  const { project } = (await context.api.call('GET', '/api/pages/deploy-token')).data;
  if (ref !== project.slug && ref !== project.id)
    throw new CliError(`this deploy token deploys project ${project.slug} (${project.id}), not ${ref}`);
  return project;
}

function registerDeployTokens(area: Command): void {
  const sub = area.command('deploy-tokens').description("a project's deploy tokens for CI (--project)");
  lsCommand(sub, deployTokens, {
    columns: ['name', 'createdBy', 'lastUsedAt', 'expiresAt', 'revokedAt', 'id'],
    filters: [bool('revoked', 'revoked', 'only revoked tokens (--no-revoked: only live ones)')],
    description: 'list deploy tokens (never their secrets), newest first',
  });
  createCommand(sub, deployTokens, {
    flags: [
      text('--name <name>', 'name', 'what the token is for, e.g. github-actions', true),
      text('--expires-at <time>', 'expiresAt', 'ISO-8601 date-time in the future (default: never)'),
    ],
    description: 'create a token that may only deploy this project; its secret (igp_…) is shown once',
  });
  deleteCommand(sub, deployTokens, { name: 'revoke', done: 'revoked', description: 'revoke a deploy token' });
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
  registerDomains(area);
  registerDeployTokens(area);
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
    async (context) => deploy(context, await deployProject(context, context.opts.project), context.args[0]),
  );
}
