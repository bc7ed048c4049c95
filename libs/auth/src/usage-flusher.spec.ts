import { toUsageRows } from './usage-flusher';

describe('toUsageRows', () => {
  it('groups a pending batch into one usage_daily increment per account, environment and day', () => {
    const rows = toUsageRows({
      'acc_a:production:2027-01-05:pages': '3',
      'acc_a:production:2027-01-05:succeeded': '2',
      'acc_a:production:2027-01-05:failed': '1',
      'acc_a:production:2027-01-05:render_ms': '4500',
      'acc_a:sandbox:2027-01-05:pages': '1',
      'acc_a:sandbox:2027-01-05:failed': '1',
      'acc_a:sandbox:2027-01-05:render_ms': '0',
      'acc_b:production:2027-01-06:pages': '1',
      'acc_b:production:2027-01-06:succeeded': '1',
      'acc_b:production:2027-01-06:render_ms': '250',
    });
    expect(rows).toEqual([
      {
        accountId: 'acc_a',
        environment: 'production',
        day: '2027-01-05',
        pages: 3,
        succeeded: 2,
        failed: 1,
        renderMs: 4500,
      },
      {
        accountId: 'acc_a',
        environment: 'sandbox',
        day: '2027-01-05',
        pages: 1,
        succeeded: 0,
        failed: 1,
        renderMs: 0,
      },
      {
        accountId: 'acc_b',
        environment: 'production',
        day: '2027-01-06',
        pages: 1,
        succeeded: 1,
        failed: 0,
        renderMs: 250,
      },
    ]);
  });

  it('has nothing to write for an empty batch', () => {
    expect(toUsageRows({})).toEqual([]);
  });
});
