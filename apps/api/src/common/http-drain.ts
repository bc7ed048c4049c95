import { INestApplication, Injectable } from '@nestjs/common';
import type { Server } from 'node:http';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { UnavailableError, settlesWithin, toErrorResponse } from '@app/common';

/**
 * The API's part of a graceful stop (SIGTERM): the listener closes, so new connections are refused;
 * a request arriving on a connection kept alive gets 503 and the connection closes; requests
 * already running (a sync scrape waiting for its page) finish and get their answer.
 */
@Injectable()
export class HttpDrain {
  private draining = false;

  /** Fastify `onRequest` hook, after the request id: every request once draining, probes included, is a 503. */
  readonly refuseWhileDraining = (
    _req: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void => {
    if (!this.draining) return done();
    const { status, body } = toErrorResponse(new UnavailableError('The server is shutting down; retry'));
    void reply.header('connection', 'close').code(status).send(body);
  };

  /** True when every open request finished within `graceMs`; the app is closed either way. */
  async drainAndClose(app: INestApplication, graceMs: number): Promise<boolean> {
    this.draining = true;
    const server = app.getHttpServer() as Server;
    // Closes the listener and each connection as it goes idle; resolves when none is left.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const drained = await settlesWithin(closed, graceMs);
    if (!drained) server.closeAllConnections();
    await app.close();
    return drained;
  }
}
