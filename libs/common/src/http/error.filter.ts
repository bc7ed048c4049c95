import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { toErrorResponse } from './error-response';

/** The one place an exception becomes an HTTP answer; a 500 never carries a stack trace. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const { status, body, headers, internal } = toErrorResponse(exception);
    if (internal !== undefined && status === 503) {
      this.logger.warn({ err: internal }, 'backing service unavailable');
    } else if (internal !== undefined) {
      this.logger.error({ err: internal, error_id: body.error_id }, 'unhandled error');
    }
    if (res.headersSent) return;
    res.status(status).set(headers).json(body);
  }
}
