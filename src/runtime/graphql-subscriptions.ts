/**
 * GraphQL subscriptions in the shape SubQuery's query service gives them (`subql-query
 * --subscription`), so one subscription document works on `npm start`'s /graphql and on
 * compose's subql-query:
 *
 *   subscription { txes(mutation: [INSERT]) { id mutation_type _entity { id height hash } } }
 *
 * One field per entity table (the table's plural query name), with the optional filters
 * `id: [ID!]` and `mutation: [MutationType!]`; each event is `{ id, mutation_type, _entity }`.
 *
 * The feed is the node's own: with `--subscription`, @subql/node-core puts an AFTER INSERT OR
 * UPDATE OR DELETE trigger on every entity table that calls pg_notify on a channel named
 * `hashName(schema, 'notify_channel', table)` with `{id, mutation_type, _entity: <row>}`.
 * Notifications are delivered when the node's flush commits, so a subscriber never sees a row
 * of a half-written height. @graphile/pg-pubsub LISTENs on one connection and fans out.
 *
 * `_entity` is read back from the table by id, as SubQuery does: the row in the notification
 * has numeric columns as JSON numbers (amounts would lose digits) and is null above 8 kB.
 * A row deleted since its event answers `_entity: null`.
 */
import { blake2b } from '@noble/hashes/blake2b';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { embed, gql, makeExtendSchemaPlugin, type Resolvers } from 'graphile-utils';
import type { DocumentNode } from 'graphql';

export type MutationType = 'INSERT' | 'UPDATE' | 'DELETE';

/** What the node's trigger function publishes, parsed. */
export interface EntityEvent {
  id: string;
  mutation_type: MutationType;
  _entity: Record<string, unknown> | null;
}

export interface SubscriptionArgs {
  id?: readonly string[] | null;
  mutation?: readonly MutationType[] | null;
}

/**
 * The NOTIFY channel of a table: @subql/utils `hashName(schema, 'notify_channel', table)`, i.e.
 * blake2b with a 64-bit digest of `<schema>_<table>_notify_channel` as 0x-hex.
 */
export function notifyChannel(schema: string, table: string): string {
  return `0x${bytesToHex(blake2b(utf8ToBytes(`${schema}_${table}_notify_channel`), { dkLen: 8 }))}`;
}

/** The field's filters, as subql-query applies them: each given list must contain the event's value. */
export function matchesSubscription(event: EntityEvent | undefined, args: SubscriptionArgs): boolean {
  if (!event) return false; // a notification whose payload was not JSON
  if (args.mutation && !args.mutation.includes(event.mutation_type)) return false;
  if (args.id && !args.id.includes(String(event.id))) return false;
  return true;
}

interface IntrospectedTable {
  name: string;
  classKind: string;
  namespace?: { name: string };
  tags: Record<string, unknown>;
}

/** Entity tables: ordinary tables of the node's schema, without its bookkeeping (`_metadata`, `_global`…). */
function isEntityTable(table: IntrospectedTable): boolean {
  return table.classKind === 'r' && !!table.namespace && !table.name.startsWith('_') && !table.tags.omit;
}

function payloadType(name: string, entityType: string): DocumentNode {
  return gql`
    type ${name} {
      id: ID!
      mutation_type: MutationType!
      _entity: ${entityType}
    }
  `;
}

/** The plugin; needs PostGraphile's `subscriptions: true` and the @graphile/pg-pubsub plugin hook. */
export const SubqlSubscriptionsPlugin = makeExtendSchemaPlugin((build) => {
  const { inflection, pgSql: sql } = build;
  const tables = (build.pgIntrospectionResultsByKind.class as IntrospectedTable[]).filter(isEntityTable);
  const typeDefs: DocumentNode[] = [
    gql`
      enum MutationType {
        INSERT
        UPDATE
        DELETE
      }
    `,
  ];
  const resolvers: Resolvers = {};
  for (const table of tables) {
    const field: string = inflection.allRows(table);
    const entityType: string = inflection.tableType(table);
    const payload = `${entityType}Payload`;
    const topic = notifyChannel(table.namespace!.name, table.name);
    typeDefs.push(payloadType(payload, entityType));
    typeDefs.push(gql`
      extend type Subscription {
        ${field}(id: [ID!], mutation: [MutationType!]): ${payload}
          @pgSubscription(topic: ${embed(topic)}, filter: ${embed(matchesSubscription)})
      }
    `);
    const identifier = sql.identifier(table.namespace!.name, table.name);
    resolvers[payload] = {
      _entity: async (event: EntityEvent, _args, _context, resolveInfo) => {
        const [row] = await resolveInfo.graphile.selectGraphQLResultFromTable(identifier, (alias, query) => {
          query.where(sql.fragment`${alias}.id = ${sql.value(String(event.id))}`);
          query.limit(1);
        });
        return row ?? null;
      },
    };
  }
  return { typeDefs, resolvers };
});
