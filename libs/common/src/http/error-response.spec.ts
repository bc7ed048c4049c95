import { toErrorResponse } from './error-response';

describe('toErrorResponse: backing services down', () => {
  const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

  it.each([
    ['mysql2 refused', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:3306')],
    ['mysql2 connection lost', withCode('PROTOCOL_CONNECTION_LOST')],
    [
      'TypeORM QueryFailedError wrapping a lost connection',
      Object.assign(new Error('Connection lost'), {
        name: 'QueryFailedError',
        driverError: { code: 'PROTOCOL_CONNECTION_LOST' },
      }),
    ],
    [
      'ioredis out of retries',
      Object.assign(new Error('Reached the max retries per request limit'), {
        name: 'MaxRetriesPerRequestError',
      }),
    ],
    ['ioredis closed', new Error('Connection is closed.')],
  ])('%s is 503 unavailable with retry-after, not a 500', (_name, err) => {
    const answer = toErrorResponse(err);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      detail: 'A backing service (database or queue) is unavailable; retry shortly',
      code: 'unavailable',
    });
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.internal).toBe(err);
  });

  it('keeps other errors, query errors included, as 500 with an error id', () => {
    const queryError = Object.assign(new Error('Duplicate entry'), {
      name: 'QueryFailedError',
      driverError: { code: 'ER_DUP_ENTRY' },
    });
    for (const err of [new Error('boom'), queryError]) {
      const answer = toErrorResponse(err);
      expect(answer.status).toBe(500);
      expect(answer.body).toMatchObject({ code: 'internal', error_id: expect.any(String) });
    }
  });
});
