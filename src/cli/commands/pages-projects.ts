import type { ApiContext } from '../api-command.js';
import type { Flag } from '../flags.js';
import { idOf, resource } from '../resource.js';

/** Pages projects (by slug or id) and the records that live under one (`--project`). */
export const projects = resource({
  noun: 'project',
  list: '/api/pages',
  id: 'projectId',
  lookup: { by: 'slug', search: 'q' },
});

export const projectFlag: Flag = {
  flags: '--project <project>',
  field: 'project',
  description: 'pages project (slug or id)',
  required: true,
};

/** `{projectId}` of the routes under the project `--project` names. */
export async function projectParams(context: ApiContext): Promise<{ projectId: string }> {
  return { projectId: await idOf(projects, context, context.opts.project) };
}

/** What a collection under a project adds to its resource: `--project`. */
export const onProject = { parents: projectParams, scope: [projectFlag] } as const;
