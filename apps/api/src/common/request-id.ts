import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const VALID = /^[\w.:-]{1,128}$/;

/** Every response carries x-request-id: the caller's, if it is sane, or a new one. Logs use it too. */
export function requestId(req: Request & { id?: string }, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && VALID.test(given) ? given : randomUUID();
  req.id = id;
  res.setHeader('x-request-id', id);
  next();
}
