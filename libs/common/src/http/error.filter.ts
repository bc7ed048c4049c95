import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { toErrorResponse } from './error-response';

/** The one place an exception becomes an HTTP answer; a 500 never carries a stack trace. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body, headers, internal } = toErrorResponse(
      exception,
      reply.request.routeOptions.bodyLimit,
    );
    if (internal !== undefined && status === 503) {
      this.logger.warn({ err: internal }, 'backing service unavailable');
    } else if (internal !== undefined) {
      this.logger.error({ err: internal, error_id: body.error_id }, 'unhandled error');
    }
    if (reply.sent) return;
    void reply.code(status).headers(headers).send(body);
  }
}
