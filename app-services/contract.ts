/**
 * The answer shapes of app-services/openapi.yaml as the route presenters return them: the types
 * generated from it (openapi.generated.ts, `npm run gen:api-types`) through `Wire`
 * (src/lib/api-wire.ts), so `tsc` fails when a presenter and the contract disagree.
 */
import type { Wire } from '../src/lib/api-wire';
import type { components } from './openapi.generated';

/** A schema of app-services/openapi.yaml `components.schemas`, as a presenter returns it. */
export type AppSchema<K extends keyof components['schemas']> = Wire<components['schemas'][K]>;
