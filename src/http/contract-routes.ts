/**
 * The one route registrar of both HTTP parts, /v1 (rest-adapter, openapi.yaml) and /api
 * (app-services, app-services/openapi.yaml). A route is declared by its document path and method:
 * its parameters and its 200 answer are typed from that document's generated `paths`
 * (openapi.generated.ts), so `tsc` fails when a route reads a parameter the document does not name
 * or returns an answer the document does not describe. Before a route runs, the registrar checks
 * its path and query parameters against the document (src/http/openapi-params.ts: in the
 * document's order, the first refusal a 400 bad_request with the parameter's `x-error-message`),
 * so a route reads only single values its schemas accepted and merely converts them. The route
 * returns its answer, which a responder writes. Any other method on the path is a 405 with `Allow`.
 * What differs between the parts is given as options: where the router is mounted, the 405 answer
 * and, per GET route, how the answer is written (/v1 layers its response cache and validators
 * there, rest-adapter/http/respond.ts).
 */
import type { Request, RequestHandler, Router } from 'express';
import type { Wire } from '../lib/api-wire';
import { badRequest, methodNotAllowed as allowOnly } from './http-errors';
import type { BodyChecks, OperationCheck, ParameterChecks } from './openapi-params';

export type ContractMethod = 'get' | 'post';

/** The operation of a document path and method (undefined when the path has none). */
type OperationOf<Paths, P extends keyof Paths, M extends ContractMethod> = Paths[P] extends { [K in M]?: infer Op }
  ? Op
  : never;
type OkBodyOf<Op> = Op extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;

/** The document's paths whose `M` operation answers JSON. */
export type JsonPathOf<Paths, M extends ContractMethod> = {
  [P in keyof Paths]: [OkBodyOf<OperationOf<Paths, P, M>>] extends [never] ? never : P;
}[keyof Paths];

/** The 200 answer of an operation as a route returns it (src/lib/api-wire.ts: a number may be a bigint). */
export type AnswerOf<Paths, P extends keyof Paths, M extends ContractMethod> = Wire<OkBodyOf<OperationOf<Paths, P, M>>>;

type ParametersIn<Op, In extends 'path' | 'query'> = Op extends { parameters: { [K in In]?: infer X } }
  ? NonNullable<X>
  : never;
/** The document's names of one kind of parameter, optional where the document's are; none when it declares none. */
type Named<X, V> = [X] extends [never] ? { [K in never]: V } : { [K in keyof X]: V };

/** The parameters a route may read: only those its operation declares. */
export interface ContractParameters<Paths, P extends keyof Paths, M extends ContractMethod> {
  /** path parameters as the router decoded them, accepted by the document */
  params: Named<ParametersIn<OperationOf<Paths, P, M>, 'path'>, string>;
  /** query values as given, each once and accepted by the document (a required one present) */
  query: Named<ParametersIn<OperationOf<Paths, P, M>, 'query'>, string>;
}

/** The request as a route sees it: Express's, with only the parameters its operation declares. */
export type ContractRequestOf<Paths, P extends keyof Paths, M extends ContractMethod> = Omit<
  Request,
  'params' | 'query'
> &
  ContractParameters<Paths, P, M>;

type Answer<Paths, P extends keyof Paths, M extends ContractMethod> = (
  req: ContractRequestOf<Paths, P, M>,
) => Promise<AnswerOf<Paths, P, M>> | AnswerOf<Paths, P, M>;

/**
 * A POST route's answer (its parameters were checked before it runs); `checkBody` throws 400
 * bad_request when the JSON body breaks the operation's requestBody schema. The route calls it
 * right after its own parser accepted the body, before it acts, so the parser's messages stay the
 * ones clients see.
 */
type PostAnswer<Paths, P extends keyof Paths> = (
  req: ContractRequestOf<Paths, P, 'post'>,
  checkBody: () => void,
) => Promise<AnswerOf<Paths, P, 'post'>> | AnswerOf<Paths, P, 'post'>;

/** Writes a route's answer: `answer` is the route's, already checked against the document. */
export type Responder = (answer: (req: Request) => Promise<unknown>) => RequestHandler;

/** The default responder: the answer as JSON (Express's `res.json`). */
export const sendJson: Responder = (answer) => async (req, res) => void res.json(await answer(req));

export interface ContractRoutes<Paths> {
  /** `respond` writes the answer (default `sendJson`) */
  get<P extends JsonPathOf<Paths, 'get'>>(path: P, answer: Answer<Paths, P, 'get'>, respond?: Responder): void;
  /** a POST route takes a JSON body (`bodyParser`), parsed only on that route */
  post<P extends JsonPathOf<Paths, 'post'>>(path: P, answer: PostAnswer<Paths, P>): void;
}

export interface ContractRoutesOptions {
  /** the document's parameter checks (openapi-params.ts `compileParameterChecks`) */
  parameters: ParameterChecks;
  /** the document's body checks (openapi-params.ts `compileBodyChecks`); none: no body is checked */
  body?: BodyChecks;
  /** the path the router is mounted at (`/api`), cut from a document path to give the router's */
  mount?: string;
  /** told each operation registered (`GET`, document path), for the start-up check against the document */
  served?: (method: 'GET' | 'POST', path: string) => void;
  /** the answer to another method on a route's path (`allow`: its method); default a 405 with `Allow` */
  methodNotAllowed?: (allow: 'GET' | 'POST') => RequestHandler;
  /** parses a POST route's body; required for `post` */
  bodyParser?: RequestHandler;
}

/** `/v1/assets/{id}` (a document path) → `/v1/assets/:id` (Express), `mount` cut from its start. */
export function expressPath(documentPath: string, mount = ''): string {
  const path = mount && documentPath.startsWith(mount) ? documentPath.slice(mount.length) : documentPath;
  return path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');
}

/**
 * The decoded path parameters of a request path when it is one of `documentPath`
 * (`/v1/txs/{hash}`): what the router would give the route, for the checks made before routing.
 */
export function pathParams(documentPath: string): (path: string) => Record<string, string> | undefined {
  const parts = documentPath.split(/\{([A-Za-z_][A-Za-z0-9_]*)\}/);
  const names = parts.filter((_p, i) => i % 2 === 1);
  const source = parts.map((p, i) => (i % 2 === 1 ? '([^/]+)' : p.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&'))).join('');
  const re = new RegExp(`^${source}$`);
  return (path) => {
    const m = re.exec(path);
    if (!m) return undefined;
    try {
      return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(m[i + 1])]));
    } catch {
      return undefined; // an undecodable escape: the router refuses it
    }
  };
}

/** Runs `answer` once the request's parameters pass `check`; else a 400 bad_request with its refusal. */
function checkedFirst<T>(check: OperationCheck, answer: (req: Request) => Promise<T> | T) {
  return async (req: Request): Promise<T> => {
    const problem = check(req);
    if (problem !== undefined) throw badRequest(problem);
    return answer(req);
  };
}

/**
 * Registers routes of the document whose generated `paths` is `Paths` on `router`. The document's
 * schemas apply to path and query values before any route runs (GET and POST alike); to a POST's
 * JSON body when the route calls `checkBody`.
 */
export function contractRoutes<Paths>(router: Router, options: ContractRoutesOptions): ContractRoutes<Paths> {
  const { parameters, mount = '' } = options;
  const refuse = options.methodNotAllowed ?? ((allow: string) => allowOnly(allow));
  return {
    get(path, answer, respond = sendJson) {
      const documentPath = String(path);
      options.served?.('GET', documentPath);
      const checked = checkedFirst(parameters('GET', documentPath), (req) =>
        answer(req as unknown as ContractRequestOf<Paths, typeof path, 'get'>),
      );
      router.route(expressPath(documentPath, mount)).get(respond(checked)).all(refuse('GET'));
    },
    post(path, answer) {
      const documentPath = String(path);
      if (!options.bodyParser) throw new Error(`POST ${documentPath}: the registrar has no body parser`);
      options.served?.('POST', documentPath);
      const checkBody = options.body?.('POST', documentPath) ?? (() => undefined);
      const checked = checkedFirst(parameters('POST', documentPath), (req) =>
        answer(req as unknown as ContractRequestOf<Paths, typeof path, 'post'>, () => {
          const bodyProblem = checkBody(req.body);
          if (bodyProblem !== undefined) throw badRequest(bodyProblem);
        }),
      );
      router.route(expressPath(documentPath, mount)).post(options.bodyParser, sendJson(checked)).all(refuse('POST'));
    },
  };
}
