import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { queryRows } from '../../db/raw.js';

// The statements of a folder tree that Drizzle's query builder cannot express.

/** A generous bound on folder depth, so a walk of the tree can never loop on corrupted data. */
const MAX_WALK = 10_000;

/** Either folder table, named for raw SQL (`sql.identifier(...)`). */
type FolderTableName = ReturnType<typeof sql.identifier>;

/** Walks up from `start` through its ancestors only: true when `folderId` is on that chain. */
export async function isAncestorOrSelf(
  tx: Tx,
  table: FolderTableName,
  folderId: string,
  start: string,
): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(
    tx,
    sql`with recursive chain(id, parent_id, depth) as (
          select id, parent_id, 1 from ${table} where id = ${start}
          union all
          select f.id, f.parent_id, c.depth + 1
            from ${table} f join chain c on f.id = c.parent_id
           where c.depth < ${MAX_WALK} and c.id <> ${folderId}
        )
        select exists(select 1 from chain where id = ${folderId}) as found`,
  );
  return row?.found === true;
}

/** The folder and all its descendants, the folder first. */
export async function subtreeIds(tx: Tx, table: FolderTableName, id: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`with recursive subtree(id, depth) as (
          select id, 0 from ${table} where id = ${id}
          union all
          select f.id, s.depth + 1 from ${table} f join subtree s on f.parent_id = s.id
           where s.depth < ${MAX_WALK}
        )
        select id from subtree order by depth`,
  );
  return rows.map((row) => row.id);
}

/** Gives the listed folders sort orders 0, 1, 2… in one statement; rows already in place keep their updatedAt. */
export async function applySiblingOrder(tx: Tx, table: FolderTableName, order: string[]): Promise<void> {
  const orderedIds = sql.join(
    order.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await tx.execute(sql`
    update ${table} set sort_order = wanted.position - 1, updated_at = now()
    from unnest(array[${orderedIds}]) with ordinality as wanted(id, position)
    where ${table}.id = wanted.id and ${table}.sort_order <> wanted.position - 1`);
}
