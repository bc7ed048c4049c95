import { constants, createInflate } from 'node:zlib';
import { PageFailure } from '../page-errors';

/** The dictionary before a stream asks for Flate (full or abbreviated name), once per filter. */
const FLATE = /\/(FlateDecode|Fl)\b/g;
/** pdf.js reads no image data for text, so an image's size is not its work. */
const IMAGE = /\/Subtype\s*\/Image\b/;
/** zlib's header: CMF 0x78 (deflate, 32K window) and a check that makes it a multiple of 31. */
const looksDeflated = (b: Buffer) => b.length > 2 && b[0] === 0x78 && (b[0] * 256 + b[1]) % 31 === 0;

/**
 * How many bytes `data` inflates to, counted as they come and dropped (`keep` holds them for the
 * next filter of a chain), rejecting with `tooMuch` past `budget`. Data zlib cannot read counts
 * what it gave: pdf.js reads it as far as it can, bounded by the content thread's deadline.
 */
function inflate(data: Buffer, budget: number, keep: boolean, tooMuch: () => Error) {
  return new Promise<{ size: number; out?: Buffer }>((resolve, reject) => {
    // Z_SYNC_FLUSH: a truncated stream gives what it has, as pdf.js reads it.
    const inflater = createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    const chunks: Buffer[] = [];
    let size = 0;
    inflater.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > budget) {
        inflater.destroy();
        reject(tooMuch());
      } else if (keep) chunks.push(chunk);
    });
    inflater.on('error', () => resolve({ size }));
    inflater.on('end', () => resolve({ size, ...(keep ? { out: Buffer.concat(chunks) } : {}) }));
    inflater.end(data);
  });
}

/**
 * Refuses a decompression bomb before pdf.js reads it: pdf.js keeps a stream's inflated bytes in
 * ArrayBuffers, which the content thread's heap cap (CONTENT_HEAP_MB) does not count, so a few MB
 * of Flate could take GBs of the worker's memory before the deadline ends the thread. Sums what the
 * Flate streams pdf.js may read (all but images) inflate to, against `maxBytes`. The scan finds
 * streams by their keywords, as pdf.js's own repair does; it costs one inflation of each stream.
 */
export async function checkInflation(pdf: Buffer, maxBytes: number): Promise<void> {
  const tooMuch = () =>
    new PageFailure(
      'TOO_COMPLEX',
      `the PDF's compressed streams inflate past PDF_MAX_INFLATED_BYTES=${maxBytes} bytes`,
    );
  let total = 0;
  let at = pdf.indexOf('stream');
  while (at !== -1) {
    let start = at + 'stream'.length;
    if (at >= 3 && pdf.toString('latin1', at - 3, at) === 'end') {
      at = pdf.indexOf('stream', start);
      continue;
    }
    if (pdf[start] === 0x0d) start++;
    if (pdf[start] === 0x0a) start++;
    const found = pdf.indexOf('endstream', start);
    const end = found === -1 ? pdf.length : found;
    const dict = pdf.toString('latin1', Math.max(0, pdf.lastIndexOf('obj', at)), at);
    const filters = dict.match(FLATE)?.length ?? 0;
    if (!IMAGE.test(dict)) {
      // A chain of Flate over Flate is inflated as deep as it goes; the last pass is what pdf.js keeps.
      let data: Buffer | undefined = pdf.subarray(start, end);
      let size = 0;
      for (let pass = 0; pass < filters && data && looksDeflated(data); pass++) {
        ({ size, out: data } = await inflate(data, maxBytes - total, pass < filters - 1, tooMuch));
      }
      total += size;
    }
    at = found === -1 ? -1 : pdf.indexOf('stream', end + 'endstream'.length);
  }
}
