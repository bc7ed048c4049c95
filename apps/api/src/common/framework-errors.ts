import { HttpException } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from '@app/common';

/**
 * Fastify's errors raised before routing, so before any hook or filter (a URL that does not decode,
 * a parameter over its length): the API's error body and request id, not Fastify's own body.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toErrorResponse(new HttpException(err.message, err.statusCode ?? 400));
  void reply.header('x-request-id', req.id).code(status).send(body);
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time'],
};

/**
 * Requests Node's HTTP parser refuses (an unknown method, a broken request line or body framing):
 * the API's error body, then the connection closes as Node's own handler would close it.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ detail, code: 'invalid_request' });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(err);
}
