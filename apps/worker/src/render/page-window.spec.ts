import { shares } from './page-window';

describe('shares', () => {
  it('cuts a range into consecutive, even pieces that cover it', () => {
    expect(shares(2, 10, 3)).toEqual([
      [2, 4],
      [4, 7],
      [7, 10],
    ]);
    expect(shares(0, 8, 4)).toEqual([
      [0, 2],
      [2, 4],
      [4, 6],
      [6, 8],
    ]);
  });

  it('makes no empty piece when asked for more pieces than items', () => {
    expect(shares(5, 7, 4)).toEqual([
      [5, 6],
      [6, 7],
    ]);
    expect(shares(3, 3, 2)).toEqual([]);
  });
});
