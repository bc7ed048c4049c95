import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { LoggerOptions } from 'pino';
import type { Options as PinoHttpOptions } from 'pino-http';

/**
 * Everything that may carry a credential, wherever it sits in a log object. Keys, webhook secrets
 * and customer-supplied headers never reach a log line.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  '*.headers.authorization',
  'authorization',
  'key',
  '*.key',
  'api_key',
  '*.api_key',
  'secret',
  '*.secret',
  'token',
  '*.token',
  'password',
  '*.password',
  'options.headers',
  '*.options.headers',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
}

/** nestjs-pino's pinoHttp options. */
export function httpLoggerOptions(level: string): PinoHttpOptions {
  return {
    ...loggerOptions(level),
    // The API's request-id middleware has already chosen the id and set the header.
    genReqId: (req: IncomingMessage) => req.id ?? randomUUID(),
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    // Only what an operator needs; never the headers, which carry the key. Read from the raw
    // request and response: pino-http's default wrapping first copies every header of both into an
    // object these serializers would throw away, on every request.
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage & { id: string; originalUrl?: string }) => ({
        id: req.id,
        method: req.method,
        url: req.originalUrl ?? req.url,
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
      err: pino.stdSerializers.err,
    },
  };
}

/** For scripts and code outside Nest. */
export function createLogger(level = 'info') {
  return pino(loggerOptions(level));
}
