/**
 * The answer shapes of openapi.yaml as presenters return them: the types generated from it
 * (openapi.generated.ts, `npm run gen:api-types`) through `Wire` (src/lib/api-wire.ts). Every
 * presenter declares its return type with `ApiSchema<'<schema name>'>`. A tx's `msgs` and `fee`
 * are stored JSON text spliced in as RawJson: txs.ts says so where it casts.
 */
import type { Wire } from '../../src/lib/api-wire';
import type { components } from '../openapi.generated';

/** A schema of openapi.yaml `components.schemas`, as a presenter returns it. */
export type ApiSchema<K extends keyof components['schemas']> = Wire<components['schemas'][K]>;
