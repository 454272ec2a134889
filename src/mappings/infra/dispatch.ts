/**
 * The tables the block handler dispatches through: each module file under
 * handlers/ exports one, from typed event type (the full proto name, as the
 * chain emits it) and message type URL to its handler.
 */
import type { TypedEvents } from '../generated/proto-json';
import type { EventCtx, MsgCtx } from './context';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry's ctx is typed by its own handler
export type EventHandler<T = any> = (ctx: EventCtx<T>) => Promise<void>;
export type MessageHandler = (ctx: MsgCtx) => Promise<void>;

/** Typed event type → its handler, which takes that event's generated proto-JSON type. */
export type EventTable = { [Type in keyof TypedEvents]?: EventHandler<TypedEvents[Type]> };

export interface HandlerTable {
  /** typed event type → handler; events of failed txs are never dispatched (the chain dropped their effects) */
  events: EventTable;
  /** message type URL → handler; called for failed txs too (they check `ctx.tx.code`) */
  messages?: Record<string, MessageHandler>;
}

/** One table of every module's; a type claimed twice is a programming error, caught at load and by the unit tests. */
export interface Dispatch {
  events: Record<string, EventHandler>;
  messages: Record<string, MessageHandler>;
}

export function mergeTables(tables: readonly HandlerTable[]): Dispatch {
  const merged: Dispatch = { events: {}, messages: {} };
  for (const table of tables) {
    for (const [kind, entries] of [
      ['events', table.events],
      ['messages', table.messages ?? {}],
    ] as const) {
      for (const [type, handler] of Object.entries(entries)) {
        const target = merged[kind] as Record<string, unknown>;
        if (target[type]) throw new Error(`two handlers for ${type}`);
        if (handler) target[type] = handler;
      }
    }
  }
  return merged;
}
