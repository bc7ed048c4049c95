import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { JOB_STATUSES, type JobAccepted, type JobStatus, type JobType, type JobView } from '@app/jobs';
import { PageResultDto } from '../../scrape/dto/page-result.dto';

const JOB_TYPES: JobType[] = ['scrape', 'batch', 'crawl'];

/** What every job-creating endpoint answers (spec: `{status, job_id}`). */
export class JobAcceptedDto implements JobAccepted {
  @ApiProperty({ enum: ['queued'] })
  status: 'queued';

  @ApiProperty({ example: 'job_01jdqz8k3m4n5p6q7r8s9t0v1w' })
  job_id: string;
}

/** A batch's or crawl's finished pages in index order, one page of them. */
export class PageListDto {
  @ApiProperty({ type: [PageResultDto] })
  data: PageResultDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Cursor of the next page of results (`?cursor=`); only null is the end (a page may hold fewer than `page_size`).',
  })
  next: string | null;
}

class JobFailureDto {
  @ApiProperty({ description: 'A page error code, or why the job could not run.' })
  code: string;

  @ApiProperty()
  message: string;
}

/** A scrape job that ended without a page result (e.g. the job could not run). */
export class JobErrorDto {
  @ApiProperty({ type: JobFailureDto })
  error: JobFailureDto;
}

/** One job in a list: the job without its result. */
export class JobSummaryDto implements Omit<JobView, 'result'> {
  @ApiProperty()
  job_id: string;

  @ApiProperty({ enum: JOB_TYPES })
  type: JobType;

  @ApiProperty({ enum: JOB_STATUSES })
  status: JobStatus;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  started_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finished_at: string | null;

  @ApiProperty({ format: 'date-time', description: 'When the results are deleted (RESULT_RETENTION_DAYS).' })
  expires_at: string;

  @ApiProperty({ type: 'integer', description: 'Pages of the job (a crawl grows as it discovers pages).' })
  total: number;

  @ApiProperty({ type: 'integer' })
  completed: number;

  @ApiProperty({ type: 'integer' })
  failed: number;
}

/** GET /v1/jobs/{id}: a job with its counters and result. */
@ApiExtraModels(PageResultDto, PageListDto, JobErrorDto)
export class JobDto extends JobSummaryDto implements JobView {
  @ApiProperty({
    description:
      'A scrape: its page result once finished (a failed page carries `error`), `{error}` if the job ended without one, null before. A batch or crawl: `{data, next}`, its finished pages so far in index order (`?cursor=&page_size=`).',
    // anyOf: a page result that failed also has `error`, so the shapes are not mutually exclusive.
    anyOf: [
      { $ref: getSchemaPath(PageResultDto) },
      { $ref: getSchemaPath(PageListDto) },
      { $ref: getSchemaPath(JobErrorDto) },
      // OpenAPI 3.0 spells "or null" as a null-only member (nullable needs a type beside it).
      { type: 'object', nullable: true, enum: [null] },
    ],
  })
  result: JobView['result'];
}

export class JobListDto {
  @ApiProperty({ type: [JobSummaryDto] })
  data: JobSummaryDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Cursor of the next page (`?cursor=`), or null.',
  })
  next: string | null;
}
