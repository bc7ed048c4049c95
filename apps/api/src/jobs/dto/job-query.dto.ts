import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { JOB_STATUSES, JobStatus, JobType } from '@app/jobs';
import { PageQueryDto } from '../../common/page-query.dto';

export class JobResultQueryDto {
  @ApiPropertyOptional({ maxLength: 200, description: 'The `next` of an earlier answer.' })
  @IsOptional()
  @MaxLength(200)
  @IsString()
  cursor?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    default: 100,
    description:
      'Most page results per answer; an answer also holds at most RESULT_PAGE_MAX_BYTES (8 MiB) of them, at least one, so it may hold fewer while more follow.',
  })
  @IsOptional()
  @Max(1000)
  @Min(1)
  @IsInt()
  @Type(() => Number)
  page_size?: number;
}

export class JobListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: JOB_STATUSES })
  @IsOptional()
  @IsIn(JOB_STATUSES)
  status?: JobStatus;

  @ApiPropertyOptional({ enum: ['scrape', 'batch', 'crawl'] })
  @IsOptional()
  @IsIn(['scrape', 'batch', 'crawl'])
  type?: JobType;
}
