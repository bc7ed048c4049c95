/** An operation did not finish by its deadline; `what` names it for the page's error message. */
export class DeadlineError extends Error {
  constructor(readonly what: string) {
    super(`${what} did not finish in time`);
    this.name = 'DeadlineError';
  }
}

/**
 * Settles like `promise`, or rejects with DeadlineError after `ms`. The operation itself is not
 * cancelled: the caller decides what to tear down (the page, its context, the browser).
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(what)), Math.max(0, ms));
  });
  // A late rejection of the abandoned operation must not become an unhandled rejection.
  promise.catch(() => undefined);
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** Milliseconds left until `deadline` (epoch ms), never negative. */
export const remaining = (deadline: number) => Math.max(0, deadline - Date.now());

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
