/**
 * Route registration of /api, as rest-adapter/http/respond.ts is for /v1: a route is declared by
 * its app-services/openapi.yaml path and method; its parameters and its 200 answer are typed from
 * the generated `paths` (openapi.generated.ts), so `tsc` fails when a route reads a parameter the
 * document does not name or answers an envelope the document does not describe. The route returns
 * its answer; this module writes it. Any other method on the path is a 405 with `Allow`.
 */
import type { Request, RequestHandler, Router } from 'express';
import type { Wire } from '../../src/lib/api-wire';
import { badRequest, methodNotAllowed } from '../../src/http/http-errors';
import { answerAfterParsers, type BodyChecks, type ParameterChecks } from '../../src/http/openapi-params';
import type { paths } from '../openapi.generated';
import { jsonBody } from './body';

type Method = 'get' | 'post';
type OperationOf<P extends keyof paths, M extends Method> = paths[P][M];
type OkBodyOf<Op> = Op extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;

/** The document's paths whose `M` operation answers JSON. */
export type AppJsonPath<M extends Method> = {
  [P in keyof paths]: [OkBodyOf<OperationOf<P, M>>] extends [never] ? never : P;
}[keyof paths];

/** The 200 answer of an operation as a route returns it (src/lib/api-wire.ts). */
export type AppAnswer<P extends AppJsonPath<M>, M extends Method> = Wire<OkBodyOf<OperationOf<P, M>>>;

type ParametersIn<Op, In extends 'path' | 'query'> = Op extends { parameters: { [K in In]?: infer X } }
  ? NonNullable<X>
  : never;
type Named<X, V> = [X] extends [never] ? { [K in never]: V } : { [K in keyof X]-?: V };

/** The request as a route sees it: only the parameters its operation declares. */
export type AppRequest<P extends AppJsonPath<M>, M extends Method> = Omit<Request, 'params' | 'query'> & {
  params: Named<ParametersIn<OperationOf<P, M>, 'path'>, string>;
  query: Partial<Named<ParametersIn<OperationOf<P, M>, 'query'>, unknown>>;
};

type Answer<P extends AppJsonPath<M>, M extends Method> = (
  req: AppRequest<P, M>,
) => Promise<AppAnswer<P, M>> | AppAnswer<P, M>;

/**
 * A POST route's answer; `checkBody` throws 400 bad_request when the JSON body breaks the
 * operation's requestBody schema. The route calls it right after its own parser accepted the body,
 * before it acts, so the parser's messages stay the ones clients see.
 */
type PostAnswer<P extends AppJsonPath<'post'>> = (
  req: AppRequest<P, 'post'>,
  checkBody: () => void,
) => Promise<AppAnswer<P, 'post'>> | AppAnswer<P, 'post'>;

/** The document's checks (src/http/openapi-params.ts), compiled once from app-services/openapi.yaml. */
export interface AppContractChecks {
  parameters: ParameterChecks;
  body: BodyChecks;
}

/** The router is mounted at /api: `/api/launchpad/metadata/{meta_hash}` → `/launchpad/metadata/:meta_hash`. */
export function routerPath(documentPath: string): string {
  return documentPath.replace(/^\/api/, '').replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');
}

export interface AppRoutes {
  get<P extends AppJsonPath<'get'>>(path: P, answer: Answer<P, 'get'>): void;
  /** a POST route takes a JSON body (http/body.ts), parsed only on that route */
  post<P extends AppJsonPath<'post'>>(path: P, answer: PostAnswer<P>): void;
}

/**
 * Registers /api routes on `router`; `served` collects `<METHOD> <document path>` for the start-up
 * check. `checks` applies the document's schemas: path and query values on a GET after the route's
 * hand parsers accepted them, on a POST (whose answer acts) before the route runs; a POST's JSON
 * body when the route calls `checkBody`.
 */
export function appRoutes(router: Router, checks: AppContractChecks, served: string[] = []): AppRoutes {
  const send =
    (answer: (req: Request) => unknown): RequestHandler =>
    async (req, res) =>
      void res.json(await answer(req));
  return {
    get(path, answer) {
      served.push(`GET ${path}`);
      const check = checks.parameters('GET', path);
      router
        .route(routerPath(path))
        .get(
          send((req) =>
            answerAfterParsers(check(req), () => answer(req as AppRequest<typeof path, 'get'>), badRequest),
          ),
        )
        .all(methodNotAllowed('GET'));
    },
    post(path, answer) {
      served.push(`POST ${path}`);
      const check = checks.parameters('POST', path);
      const checkBody = checks.body('POST', path);
      const checked = (req: Request) => {
        const problem = check(req);
        if (problem !== undefined) throw badRequest(problem);
        return answer(req as AppRequest<typeof path, 'post'>, () => {
          const bodyProblem = checkBody(req.body);
          if (bodyProblem !== undefined) throw badRequest(bodyProblem);
        });
      };
      router.route(routerPath(path)).post(jsonBody, send(checked)).all(methodNotAllowed('POST'));
    },
  };
}
