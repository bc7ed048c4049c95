import { deflateSync } from 'node:zlib';
import { checkInflation } from './pdf-inflation';

const stream = (dict: string, data: Buffer) =>
  Buffer.concat([
    Buffer.from(`1 0 obj\n<< ${dict} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from('\nendstream\nendobj\n'),
  ]);
const pdf = (...streams: Buffer[]) =>
  Buffer.concat([Buffer.from('%PDF-1.7\n'), ...streams, Buffer.from('%%EOF\n')]);
const MB = 2 ** 20;

describe('checkInflation', () => {
  it('counts what the Flate streams inflate to together, against the cap', async () => {
    const half = stream('/Filter /FlateDecode', deflateSync(Buffer.alloc(0.6 * MB)));
    await expect(checkInflation(pdf(half), MB)).resolves.toBeUndefined();
    await expect(checkInflation(pdf(half, half), MB)).rejects.toMatchObject({
      code: 'TOO_COMPLEX',
      message: `the PDF's compressed streams inflate past PDF_MAX_INFLATED_BYTES=${MB} bytes`,
    });
  });

  it('inflates a chain of Flate filters as deep as it goes', async () => {
    const nested = deflateSync(deflateSync(Buffer.alloc(4 * MB)));
    await expect(checkInflation(pdf(stream('/Filter /FlateDecode', nested)), MB)).resolves.toBeUndefined();
    await expect(checkInflation(pdf(stream('/Filter [/FlateDecode /Fl]', nested)), MB)).rejects.toMatchObject(
      {
        code: 'TOO_COMPLEX',
      },
    );
  });

  it('leaves images, other filters and unreadable data to pdf.js', async () => {
    const big = deflateSync(Buffer.alloc(4 * MB));
    await expect(
      checkInflation(pdf(stream('/Subtype /Image /Filter /FlateDecode', big)), MB),
    ).resolves.toBeUndefined();
    await expect(checkInflation(pdf(stream('/Filter /LZWDecode', big)), MB)).resolves.toBeUndefined();
    await expect(
      checkInflation(pdf(stream('/Filter /FlateDecode', Buffer.from('x\x9cnot deflate at all'))), MB),
    ).resolves.toBeUndefined();
  });

  it('counts a truncated stream as far as it goes', async () => {
    const cut = deflateSync(Buffer.alloc(4 * MB)).subarray(0, 3000);
    await expect(checkInflation(pdf(stream('/Filter /FlateDecode', cut)), MB)).rejects.toMatchObject({
      code: 'TOO_COMPLEX',
    });
  });
});
