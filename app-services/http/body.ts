/** The JSON body parser of the /api routes that take a body (each POST route names it, so another method on any path is a 405, not a parse error). */
import express from 'express';

export const JSON_BODY_LIMIT_BYTES = 512 * 1024;

export const jsonBody = express.json({ limit: JSON_BODY_LIMIT_BYTES, strict: false });
