import { rateLimitHeaders } from './token-bucket';

describe('rateLimitHeaders', () => {
  it('writes the spec headers and the IETF draft-11 pair for an allowed request', () => {
    const headers = rateLimitHeaders({
      allowed: true,
      limit: 300,
      remaining: 41,
      resetSeconds: 52,
      retryAfterSeconds: 0,
    });
    expect(headers).toEqual({
      'x-ratelimit-limit': '300',
      'x-ratelimit-remaining': '41',
      'x-ratelimit-reset': '52',
      'ratelimit-policy': '"per-minute";q=300;w=60',
      ratelimit: '"per-minute";r=41;t=52',
    });
  });

  it('ends the effective window with retry-after on a refusal, never after it', () => {
    const headers = rateLimitHeaders({
      allowed: false,
      limit: 20,
      remaining: 0,
      resetSeconds: 60,
      retryAfterSeconds: 3,
    });
    expect(headers['x-ratelimit-reset']).toBe('60');
    expect(headers.ratelimit).toBe('"per-minute";r=0;t=3');
  });
});
