import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { Doc } from './env-doc';
import { toInt } from './env-transforms';

/**
 * PDF documents' bounds (docs/api.md, PDF documents), for the worker's engines and content threads:
 * a mixin over the worker schema's base, so they live in a file of their own.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function withPdfEnv<T extends new (...args: any[]) => object>(Base: T) {
  class PdfEnv extends Base {
    @Doc('largest PDF read; a larger one is `TOO_LARGE`', '`52428800` (50 MiB)')
    @Transform(toInt)
    @Min(1024)
    @Max(1024 * 1024 * 1024)
    @IsInt()
    PDF_MAX_BYTES = 50 * 1024 * 1024;

    @Doc('most pages of a PDF converted; a PDF with more is `TOO_COMPLEX`')
    @Transform(toInt)
    @Min(1)
    @Max(100_000)
    @IsInt()
    PDF_MAX_PAGES = 1000;

    /** A text PDF's content streams and fonts inflate to a few MB; a bomb to GBs (pdf-inflation.ts). */
    @Doc(
      "most bytes a PDF's compressed streams (all but images) may inflate to together; past it the PDF is `TOO_COMPLEX`",
      '`268435456` (256 MiB)',
    )
    @Transform(toInt)
    @Min(1024 * 1024)
    @IsInt()
    PDF_MAX_INFLATED_BYTES = 256 * 1024 * 1024;
  }
  return PdfEnv;
}
