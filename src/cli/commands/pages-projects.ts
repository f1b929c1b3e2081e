import type { Flag } from '../flags.js';
import { type Lookup, type Resource, recordRoute } from '../resource.js';

/** Pages projects (by slug or id) and the records that live under one (`--project`). */
export const projects: Resource = {
  noun: 'project',
  route: '/api/pages',
  lookup: { by: 'slug', search: 'q' },
};

export const projectFlag: Flag = {
  flags: '--project <project>',
  field: 'project',
  description: 'pages project (slug or id)',
  required: true,
};

/** `/api/pages/<id of --project>/<collection>`, whose records are named by id unless `lookup` says otherwise. */
export const underProject = (noun: string, collection: string, lookup: Lookup = 'as-is'): Resource => ({
  noun,
  route: async (context) => `${await recordRoute(projects, context, context.opts.project)}/${collection}`,
  lookup,
  scope: [projectFlag],
});
