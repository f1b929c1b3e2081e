import { eq } from 'drizzle-orm';
import { notFound } from '../../core/errors.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { pagesProjects } from '../../db/schema/index.js';

/** Locks a project row for the rest of the transaction (changes of one project take turns). */
export async function lockProject(tx: Tx, projectId: string) {
  const [project] = await tx
    .select({ slug: pagesProjects.slug, production: pagesProjects.productionDeploymentId })
    .from(pagesProjects)
    .where(eq(pagesProjects.id, projectId))
    .for('update');
  return project;
}

/** 404 unless the project exists. */
export async function requireProject(db: DbOrTx, projectId: string): Promise<void> {
  const [row] = await db
    .select({ id: pagesProjects.id })
    .from(pagesProjects)
    .where(eq(pagesProjects.id, projectId));
  if (!row) throw notFound({ projectId });
}

/** Points the project's site at a deployment. */
export async function setProduction(tx: Tx, projectId: string, deploymentId: string): Promise<void> {
  await tx
    .update(pagesProjects)
    .set({ productionDeploymentId: deploymentId, updatedAt: new Date() })
    .where(eq(pagesProjects.id, projectId));
}
