import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

const VALID = /^[\w.:-]{1,128}$/;

/**
 * Fastify's `genReqId`: the caller's x-request-id, if it is sane, or a new one. Also kept on the raw
 * request, where pino-http (nestjs-pino) reads it for the log line.
 */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && VALID.test(given) ? given : randomUUID();
  req.id = id;
  return id;
}

/** The first `onRequest` hook: every response, errors and 404s included, carries x-request-id. */
export function echoRequestId(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  void reply.header('x-request-id', req.id);
  done();
}
