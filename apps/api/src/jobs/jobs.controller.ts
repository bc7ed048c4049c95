import { Controller, Delete, Get, Param, Query } from '@nestjs/common';
import { AuthContext, CurrentAuth } from '@app/auth';
import { JobsService } from './jobs.service';
import { JobListQueryDto, JobResultQueryDto } from './dto/job-query.dto';
import type { JobView } from '@app/persistence';

@Controller('v1/jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get()
  async list(@CurrentAuth() auth: AuthContext, @Query() q: JobListQueryDto) {
    return this.jobs.list(auth, { status: q.status, type: q.type, cursor: q.cursor, limit: q.limit ?? 50 });
  }

  /** Spec "GET /v1/jobs/{id}": poll a job; batch and crawl results page through `cursor`. */
  @Get(':id')
  async get(
    @CurrentAuth() auth: AuthContext,
    @Param('id') id: string,
    @Query() q: JobResultQueryDto,
  ): Promise<JobView> {
    return this.jobs.get(auth, id, q.cursor, q.page_size ?? 100);
  }

  @Delete(':id')
  async cancel(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<JobView> {
    return this.jobs.cancel(auth, id);
  }
}
