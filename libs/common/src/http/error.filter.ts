import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ErrorResponse, toErrorResponse } from './error-response';

/** Logs what an answer leaves out: an outage's cause, or an unexpected error under its error id. */
export function logInternal(logger: Logger, { status, body, internal }: ErrorResponse): void {
  if (internal !== undefined && status === 503) {
    logger.warn({ err: internal }, 'backing service unavailable');
  } else if (internal !== undefined) {
    logger.error({ err: internal, error_id: body.error_id }, 'unhandled error');
  }
}

/** The one place an exception becomes an HTTP answer; a 500 never carries a stack trace. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const response = toErrorResponse(exception, reply.request.routeOptions.bodyLimit);
    logInternal(this.logger, response);
    const { status, body, headers } = response;
    if (reply.sent) return;
    void reply.code(status).headers(headers).send(body);
  }
}
