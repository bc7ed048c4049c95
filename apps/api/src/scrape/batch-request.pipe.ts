import { ExecutionContext, PipeTransform, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { FieldProblem, InvalidRequestError } from '@app/common';
import { createValidationPipe } from '../common/validation';
import { BatchRequestDto, MAX_BATCH_URLS } from './dto/batch-request.dto';

/**
 * The body of POST /v1/scrape/batch/async, read past the global ValidationPipe: that pipe visits
 * every array item several times (gap closing, prototype-key stripping, class-transformer's copy),
 * seconds for a million URLs (docs/decisions.md, "Batch acceptance"). The rest of the body is
 * validated by the same pipe against BatchRequestDto (which has no rule on `urls`); the list's
 * shape here, each URL by BatchService.
 */
export class BatchRequestPipe implements PipeTransform<unknown, Promise<BatchRequestDto>> {
  private readonly validation = createValidationPipe();

  async transform(body: unknown): Promise<BatchRequestDto> {
    const { urls, ...options } = (typeof body === 'object' && body !== null ? body : {}) as Record<
      string,
      unknown
    >;
    const problems: FieldProblem[] = [];
    const listProblem = checkList(urls);
    if (listProblem) problems.push({ field: 'urls', message: listProblem });
    let dto: BatchRequestDto | undefined;
    try {
      dto = (await this.validation.transform(options, {
        type: 'body',
        metatype: BatchRequestDto,
      })) as BatchRequestDto;
    } catch (err) {
      if (!(err instanceof InvalidRequestError)) throw err;
      problems.push(...err.errors);
    }
    if (problems.length || !dto) {
      const first = problems[0];
      throw new InvalidRequestError(`${first.field}: ${first.message}`, problems);
    }
    return Object.assign(dto, { urls: urls as unknown[] });
  }
}

function checkList(urls: unknown): string | undefined {
  if (!Array.isArray(urls)) return 'urls must be an array';
  if (urls.length === 0) return 'urls should not be empty';
  if (urls.length > MAX_BATCH_URLS) return `urls must contain at most ${MAX_BATCH_URLS} URLs`;
  return undefined;
}

/** The raw body, for BatchRequestPipe (a custom parameter, which the global ValidationPipe skips). */
export const BatchBody = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): unknown => ctx.switchToHttp().getRequest<FastifyRequest>().body,
);
