/** Route registration and JSON answers shared by the route files. */
import type { Request, RequestHandler, Response, Router } from 'express';
import { toJson } from '../json';
import { methodNotAllowed } from './errors';

export function sendJson(res: Response, body: unknown): void {
  res.status(200).type('application/json').send(toJson(body));
}

/** A GET-only path: other methods get 405 with `Allow: GET` (openapi `methods`). */
export function getOnly(router: Router, path: string, handler: (req: Request, res: Response) => Promise<void> | void): void {
  router.route(path).get(handler as RequestHandler).all(methodNotAllowed);
}
