import { sql } from 'drizzle-orm';
import { pagesDeploymentFiles, pagesDeployments, pagesProjects } from '../../db/schema/index.js';

/**
 * A deployment as the API answers it (`Deployment`, once `SiteUrls.deployment()` adds its URL);
 * select it from deployments joined with their project, which says whether it is production.
 */
export const deploymentColumns = {
  id: pagesDeployments.id,
  projectId: pagesDeployments.projectId,
  status: pagesDeployments.status,
  fileCount: pagesDeployments.fileCount,
  sizeBytes: pagesDeployments.sizeBytes,
  pinned: pagesDeployments.pinned,
  production: sql<boolean>`coalesce(${pagesProjects.productionDeploymentId} = ${pagesDeployments.id}, false)`,
  archiveFormat: pagesDeployments.archiveFormat,
  archiveBytes: pagesDeployments.archiveBytes,
  archiveSha256: pagesDeployments.archiveSha256,
  createdBy: pagesDeployments.createdByEmail,
  deployTokenId: pagesDeployments.deployTokenId,
  createdAt: pagesDeployments.createdAt,
  projectSlug: pagesProjects.slug,
};

/** The columns of a deployment's file as the API (`DeploymentFile`) and the site server see them. */
export const fileColumns = {
  path: pagesDeploymentFiles.path,
  sha256: pagesDeploymentFiles.sha256,
  sizeBytes: pagesDeploymentFiles.sizeBytes,
  contentType: pagesDeploymentFiles.contentType,
};
