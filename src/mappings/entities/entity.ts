/**
 * The transitions every entity shares: look one up or record that the chain named an unknown
 * one, change fields and mark the row for writing (moving `updated_height` for the entities
 * that keep one), change a status after checking the previous one. Handlers and domain rules
 * change entities only through these and the per-entity functions beside them, so a row is
 * never changed without being written (the layout test holds it).
 */
import { markDirty, load, type EntityClass, type StoredEntity } from '../infra/block-cache';
import type { EventCtx } from '../infra/context';
import { expectEqual, recordDrift } from './drift';

/** Where a change happens: only its height matters here. */
export interface At {
  height: number;
}

/** An entity whose rows carry the height of their last change. */
export type Versioned = StoredEntity & { updatedHeight: number };

/**
 * The entity with that id, or undefined after recording that the chain refers to one the
 * indexer does not know (a Drift named by `entityName`, the schema's type name).
 */
export async function requireEntity<T extends StoredEntity>(
  ctx: EventCtx<unknown>,
  cls: EntityClass<T>,
  entityName: string,
  id: string,
): Promise<T | undefined> {
  const found = await load(cls, id);
  if (!found) await recordDrift(ctx, entityName, id, 'exists', true, false);
  return found;
}

/**
 * Sets `fields` (in the order given: a field the row lacked is added in that order) and marks
 * the row for writing. For entities without `updated_height`; the others go through `update`.
 */
export function change<T extends StoredEntity>(entity: T, fields: Partial<T>): T {
  Object.assign(entity, fields);
  markDirty(entity);
  return entity;
}

/** Marks the row changed at `at.height` without changing anything else. */
export function touch<T extends Versioned>(at: At, entity: T): T {
  entity.updatedHeight = at.height;
  markDirty(entity);
  return entity;
}

/** Sets `fields`, moves `updated_height` to `at.height` and marks the row for writing. */
export function update<T extends Versioned>(at: At, entity: T, fields: Partial<T>): T {
  Object.assign(entity, fields);
  return touch(at, entity);
}

/** An entity with a status column (its values are the chain's or the indexer's own words). */
export type WithStatus = Versioned & { status: string };

/**
 * A status change the chain reports with the status it left: a `previous` other than the one
 * the indexer holds is a drift (the chain's new status is taken either way).
 */
export async function changeStatus<T extends WithStatus>(
  ctx: EventCtx<unknown>,
  entityName: string,
  entity: T,
  previous: string | undefined | null,
  status: string,
): Promise<void> {
  await expectEqual(ctx, entityName, entity.id, 'status', previous, entity.status);
  update(ctx, entity, { status } as Partial<T>);
}
