/**
 * The entities of schema.graphql as a store holds them: per entity type its table (the node's
 * own naming: Sequelize's underscored plural), its GraphQL collection, and per field its column
 * and the kind of value the store gives back, so a row read from PostgreSQL or from GraphQL
 * becomes the values the mappings wrote (what src/lib/proof.ts `recordText` encodes).
 */
import fs from 'fs';
import path from 'path';
import { Utils } from '@subql/x-sequelize';
import { Kind, parse, type DefinitionNode, type ObjectTypeDefinitionNode, type TypeNode } from 'graphql';

/** How a field comes back from the store. */
export type FieldKind = 'text' | 'int' | 'float' | 'numeric' | 'bool' | 'timestamp' | 'json';

export interface FieldModel {
  name: string;
  column: string;
  kind: FieldKind;
}

export interface EntityModel {
  name: string;
  table: string;
  /** the PostGraphile collection of the table (simplify inflector: the table's camelCase) */
  collection: string;
  fields: FieldModel[];
  byColumn: ReadonlyMap<string, FieldModel>;
}

export const SCHEMA_FILE = path.resolve(__dirname, '..', 'schema.graphql');

const SCALARS: Record<string, FieldKind> = {
  ID: 'text',
  String: 'text',
  Int: 'int',
  Float: 'float',
  BigInt: 'numeric',
  Boolean: 'bool',
  Date: 'timestamp',
  Json: 'json',
  Bytes: 'text',
};

function hasDirective(def: ObjectTypeDefinitionNode, name: string): boolean {
  return (def.directives ?? []).some((d) => d.name.value === name);
}

function kindOf(type: TypeNode, jsonTypes: ReadonlySet<string>): FieldKind {
  if (type.kind === Kind.NON_NULL_TYPE) return kindOf(type.type, jsonTypes);
  if (type.kind === Kind.LIST_TYPE) return 'json'; // arrays are jsonb
  const name = type.name.value;
  if (jsonTypes.has(name)) return 'json';
  const kind = SCALARS[name];
  if (!kind) throw new Error(`schema.graphql: no store kind for type ${name}`);
  return kind;
}

/** The table of an entity type, as the node names it (Sequelize: underscored plural). */
export function tableOf(type: string): string {
  return Utils.underscoredIf(Utils.pluralize(type), true);
}

const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Every @entity type of a schema.graphql text. */
export function entityModels(schemaText: string): Map<string, EntityModel> {
  const defs = parse(schemaText).definitions.filter(
    (d: DefinitionNode): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION,
  );
  const jsonTypes = new Set(defs.filter((d) => hasDirective(d, 'jsonField')).map((d) => d.name.value));
  const out = new Map<string, EntityModel>();
  for (const def of defs.filter((d) => hasDirective(d, 'entity'))) {
    const table = tableOf(def.name.value);
    const fields = (def.fields ?? []).map((f) => ({
      name: f.name.value,
      column: Utils.underscoredIf(f.name.value, true),
      kind: kindOf(f.type, jsonTypes),
    }));
    out.set(def.name.value, {
      name: def.name.value,
      table,
      collection: camel(table),
      fields,
      byColumn: new Map(fields.map((f) => [f.column, f])),
    });
  }
  return out;
}

let repositoryModels: Map<string, EntityModel> | undefined;

/** The entities of this repository's schema.graphql (read once). */
export function schemaModels(): Map<string, EntityModel> {
  repositoryModels ??= entityModels(fs.readFileSync(SCHEMA_FILE, 'utf8'));
  return repositoryModels;
}
