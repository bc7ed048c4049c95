import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { JOB_STATUSES, JobStatus, JobType } from '@app/persistence';

export class JobResultQueryDto {
  @IsOptional()
  @MaxLength(200)
  @IsString()
  cursor?: string;

  @IsOptional()
  @Max(1000)
  @Min(1)
  @IsInt()
  @Type(() => Number)
  page_size?: number;
}

export class JobListQueryDto {
  @IsOptional()
  @IsIn(JOB_STATUSES)
  status?: JobStatus;

  @IsOptional()
  @IsIn(['scrape', 'batch', 'crawl'])
  type?: JobType;

  @IsOptional()
  @MaxLength(200)
  @IsString()
  cursor?: string;

  @IsOptional()
  @Max(100)
  @Min(1)
  @IsInt()
  @Type(() => Number)
  limit?: number;
}
