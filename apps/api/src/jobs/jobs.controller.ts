import { Controller, Delete, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { AuthContext, CurrentAuth } from '@app/auth';
import { ApiErrors, CustomerApi } from '../common/openapi';
import { JobsService } from './jobs.service';
import { JobListQueryDto, JobResultQueryDto } from './dto/job-query.dto';
import { JobDto, JobListDto } from './dto/job.dto';

const JOB_ID = {
  name: 'id',
  description: 'The job_id the job was created with.',
  example: 'job_01jdqz8k3m4n5p6q7r8s9t0v1w',
};

@Controller('v1/jobs')
@CustomerApi('jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get()
  @ApiOperation({ summary: "The caller's jobs, newest first (without results)" })
  @ApiOkResponse({ type: JobListDto })
  @ApiErrors(400)
  async list(@CurrentAuth() auth: AuthContext, @Query() q: JobListQueryDto): Promise<JobListDto> {
    return this.jobs.list(auth, { status: q.status, type: q.type, cursor: q.cursor, limit: q.limit ?? 50 });
  }

  /** Spec "GET /v1/jobs/{id}": poll a job; batch and crawl results page through `cursor`. */
  @Get(':id')
  @ApiOperation({
    summary: 'A job and its results',
    description: "A batch's or crawl's results page through `cursor` and `page_size`, also while it runs.",
  })
  @ApiParam(JOB_ID)
  @ApiOkResponse({ type: JobDto })
  @ApiErrors(400, 404)
  async get(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() q: JobResultQueryDto,
  ): Promise<JobDto> {
    return this.jobs.get(auth, id, q.cursor, q.page_size ?? 100);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Cancels a job',
    description:
      'No new page starts; unstarted pages go back to the quota. An ended job is returned as it is.',
  })
  @ApiParam(JOB_ID)
  @ApiOkResponse({ type: JobDto })
  @ApiErrors(404)
  async cancel(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<JobDto> {
    return this.jobs.cancel(auth, id);
  }
}
