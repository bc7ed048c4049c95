import { quotaMonth } from './quota.service';

describe('quotaMonth (injected clock)', () => {
  it('keys a reservation by the UTC month and resets at the first instant of the next month', () => {
    expect(quotaMonth(new Date('2027-01-31T23:59:59.999Z'))).toEqual({
      month: '2027-01-01',
      resetsAt: new Date('2027-02-01T00:00:00.000Z'),
    });
    expect(quotaMonth(new Date('2027-02-01T00:00:00.000Z')).month).toBe('2027-02-01');
  });

  it('rolls over the year and handles leap Februaries', () => {
    expect(quotaMonth(new Date('2026-12-31T23:00:00Z')).resetsAt).toEqual(new Date('2027-01-01T00:00:00Z'));
    expect(quotaMonth(new Date('2028-02-29T12:00:00Z'))).toEqual({
      month: '2028-02-01',
      resetsAt: new Date('2028-03-01T00:00:00Z'),
    });
  });

  it('uses UTC, not the local offset of the time given', () => {
    // 23:30 on 31 March in New York is already April in UTC.
    expect(quotaMonth(new Date('2027-03-31T23:30:00-04:00')).month).toBe('2027-04-01');
  });
});
