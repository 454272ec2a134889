/**
 * The /api routes on the contract route registrar (src/http/contract-routes.ts), typed from
 * app-services/openapi.yaml's generated `paths`: the router is mounted at /api, a POST route parses
 * its JSON body (http/body.ts) and only that route does.
 */
import type { Router } from 'express';
import { contractRoutes, type ContractRoutes } from '../../src/http/contract-routes';
import type { BodyChecks, ParameterChecks } from '../../src/http/openapi-params';
import type { paths } from '../openapi.generated';
import { jsonBody } from './body';

export type AppRoutes = ContractRoutes<paths>;

/** The document's checks (src/http/openapi-params.ts), compiled once from app-services/openapi.yaml. */
export interface AppContractChecks {
  parameters: ParameterChecks;
  body: BodyChecks;
}

/** Registers /api routes on `router`; `served` collects `<METHOD> <document path>` for the start-up check. */
export function appRoutes(router: Router, checks: AppContractChecks, served: string[] = []): AppRoutes {
  return contractRoutes<paths>(router, {
    ...checks,
    mount: '/api',
    served: (method, path) => void served.push(`${method} ${path}`),
    bodyParser: jsonBody,
  });
}
