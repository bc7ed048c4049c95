import { DeadlineError, withDeadline } from './deadline';

describe('withDeadline', () => {
  it('passes through what settles in time', async () => {
    await expect(withDeadline(Promise.resolve(7), 50, 'x')).resolves.toBe(7);
    await expect(withDeadline(Promise.reject(new Error('boom')), 50, 'x')).rejects.toThrow('boom');
  });

  it('rejects with DeadlineError when the operation hangs', async () => {
    const hanging = new Promise<never>(() => undefined);
    await expect(withDeadline(hanging, 10, 'reading the page')).rejects.toEqual(
      new DeadlineError('reading the page'),
    );
  });

  it('does not leave a late rejection unhandled', async () => {
    const late = new Promise((_, reject) => setTimeout(() => reject(new Error('late')), 20));
    await expect(withDeadline(late, 5, 'x')).rejects.toBeInstanceOf(DeadlineError);
    await new Promise((resolve) => setTimeout(resolve, 30));
  });
});
