import { and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import { visibleResources } from '../../core/auth/visible-resources.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, notFound } from '../../core/errors.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import type { Db, DbOrTx } from '../../db/client.js';
import {
  pagesDeploymentFiles,
  pagesDeployments,
  pagesDomains,
  pagesProjects,
} from '../../db/schema/index.js';
import type { BlobCollector } from './blob-gc.js';
import { deploymentColumns } from './columns.js';
import type { DomainCertificates } from './domain-certificates.js';
import { lockProject } from './project-rows.js';
import type { NewProject, Project, ProjectChanges, ProjectListQuery } from './schemas.js';
import type { SiteInvalidation } from './site-lookup.js';
import type { SiteUrls } from './site-urls.js';

/** Static site projects: a name, the slug they are served under and the SPA fallback switch. */
export class ProjectService {
  private readonly db: Db;
  private readonly audit: AuditRecorder;
  private readonly gc: BlobCollector;
  private readonly sites: SiteInvalidation;
  private readonly urls: SiteUrls;
  private readonly certificates: DomainCertificates;

  constructor(
    deps: Pick<Deps, 'db' | 'audit'> & {
      gc: BlobCollector;
      sites: SiteInvalidation;
      urls: SiteUrls;
      certificates: DomainCertificates;
    },
  ) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.gc = deps.gc;
    this.sites = deps.sites;
    this.urls = deps.urls;
    this.certificates = deps.certificates;
  }

  /** The projects the actor may see (all with an area-wide scope). */
  async list(actor: Actor, filter: ProjectListQuery) {
    const where = and(
      visibleResources(pagesProjects.id, actor, 'pages:view'),
      filter.q
        ? or(containsText(pagesProjects.name, filter.q), containsText(pagesProjects.slug, filter.q))
        : undefined,
    );
    return fetchPage(
      filter,
      async ({ limit, offset }) => {
        const rows = await this.db
          .select({ id: pagesProjects.id })
          .from(pagesProjects)
          .where(where)
          .orderBy(asc(pagesProjects.slug))
          .limit(limit)
          .offset(offset);
        return this.projects(
          this.db,
          rows.map((row) => row.id),
        );
      },
      this.db.select({ value: count() }).from(pagesProjects).where(where),
    );
  }

  async get(id: string, db: DbOrTx = this.db): Promise<Project> {
    const [project] = await this.projects(db, [id]);
    if (!project) throw notFound({ projectId: id });
    return project;
  }

  /** A project by its slug; 404 as well when the actor may not see it. */
  async getBySlug(actor: Actor, slug: string): Promise<Project> {
    const [row] = await this.db
      .select({ id: pagesProjects.id })
      .from(pagesProjects)
      .where(and(eq(pagesProjects.slug, slug), visibleResources(pagesProjects.id, actor, 'pages:view')));
    if (!row) throw notFound({ slug });
    return this.get(row.id);
  }

  async create(actor: AuditActor, input: NewProject): Promise<Project> {
    const name = trimmedName(input.name);
    return this.db.transaction(async (tx) => {
      const [{ id }] = (await conflictOnDuplicate(
        tx
          .insert(pagesProjects)
          .values({ name, slug: input.slug, spaFallback: input.spaFallback ?? false })
          .returning({ id: pagesProjects.id }),
        'SLUG_TAKEN',
        { slug: input.slug },
      )) as [{ id: string }];
      await this.audit.record(tx, actor, {
        action: 'pages.project.created',
        targetType: 'pages_project',
        targetId: id,
        metadata: { name, slug: input.slug, spaFallback: input.spaFallback ?? false },
      });
      return this.get(id, tx);
    });
  }

  async update(actor: AuditActor, id: string, changes: ProjectChanges): Promise<Project> {
    const values: Partial<typeof pagesProjects.$inferInsert> = {};
    if (changes.name !== undefined) values.name = trimmedName(changes.name);
    if (changes.slug !== undefined) values.slug = changes.slug;
    if (changes.spaFallback !== undefined) values.spaFallback = changes.spaFallback;
    if (Object.keys(values).length === 0)
      throw invalidField([], 'send at least one of name, slug, spaFallback');
    const { project, oldSlug } = await this.db.transaction(async (tx) => {
      const before = await lockProject(tx, id);
      if (!before) throw notFound({ projectId: id });
      await conflictOnDuplicate(
        tx
          .update(pagesProjects)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(pagesProjects.id, id)),
        'SLUG_TAKEN',
        { slug: changes.slug },
      );
      await this.audit.record(tx, actor, {
        action: 'pages.project.updated',
        targetType: 'pages_project',
        targetId: id,
        metadata: { ...values, ...(values.slug ? { previousSlug: before.slug } : {}) },
      });
      return { project: await this.get(id, tx), oldSlug: before.slug };
    });
    this.sites.forgetSite(id, oldSlug);
    this.sites.forgetSite(id, project.slug);
    return project;
  }

  /** Deletes the project with all its deployments, then the blobs only they held. */
  async remove(actor: AuditActor, id: string): Promise<void> {
    const { slug, blobs } = await this.db.transaction(async (tx) => {
      const project = await lockProject(tx, id);
      if (!project) throw notFound({ projectId: id });
      const files = await tx
        .selectDistinct({ sha256: pagesDeploymentFiles.sha256 })
        .from(pagesDeploymentFiles)
        .innerJoin(pagesDeployments, eq(pagesDeployments.id, pagesDeploymentFiles.deploymentId))
        .where(eq(pagesDeployments.projectId, id));
      const [deployments] = await tx
        .select({ value: count() })
        .from(pagesDeployments)
        .where(eq(pagesDeployments.projectId, id));
      const domains = await tx.select().from(pagesDomains).where(eq(pagesDomains.projectId, id));
      await tx.update(pagesProjects).set({ productionDeploymentId: null }).where(eq(pagesProjects.id, id));
      // Its domains go with it (a cascade), and with them the certificates ordered for them.
      await tx.delete(pagesProjects).where(eq(pagesProjects.id, id));
      await this.audit.record(tx, actor, {
        action: 'pages.project.deleted',
        targetType: 'pages_project',
        targetId: id,
        metadata: { slug: project.slug, deployments: deployments?.value ?? 0 },
      });
      await this.certificates.release(tx, actor, domains);
      if (domains.length > 0) await this.certificates.changed(tx);
      return { slug: project.slug, blobs: files.map((file) => file.sha256) };
    });
    this.sites.forgetSite(id, slug);
    await this.gc.collect(blobs);
  }

  /** The projects with these ids, in this order, each with its deployment count and latest deployment. */
  private async projects(db: DbOrTx, ids: string[]): Promise<Project[]> {
    if (ids.length === 0) return [];
    const projects = await db
      .select({
        id: pagesProjects.id,
        name: pagesProjects.name,
        slug: pagesProjects.slug,
        spaFallback: pagesProjects.spaFallback,
        productionDeploymentId: pagesProjects.productionDeploymentId,
        createdAt: pagesProjects.createdAt,
        updatedAt: pagesProjects.updatedAt,
        // Written out in full: inside a subquery Drizzle would leave the outer column unqualified.
        deploymentCount: sql<number>`(select count(*)::int from pages_deployments d where d.project_id = pages_projects.id)`,
      })
      .from(pagesProjects)
      .where(inArray(pagesProjects.id, ids));
    const latest = await db
      .selectDistinctOn([pagesDeployments.projectId], deploymentColumns)
      .from(pagesDeployments)
      .innerJoin(pagesProjects, eq(pagesProjects.id, pagesDeployments.projectId))
      .where(inArray(pagesDeployments.projectId, ids))
      .orderBy(pagesDeployments.projectId, desc(pagesDeployments.createdAt), desc(pagesDeployments.id));
    const latestByProject = new Map(latest.map((row) => [row.projectId, this.urls.deployment(row)]));
    const byId = new Map(
      projects.map((project) => [
        project.id,
        {
          ...project,
          deploymentCount: Number(project.deploymentCount),
          lastDeployment: latestByProject.get(project.id) ?? null,
          url: this.urls.project(project.slug),
        },
      ]),
    );
    return ids.flatMap((id) => {
      const project = byId.get(id);
      return project ? [project] : [];
    });
  }
}
