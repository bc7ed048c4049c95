import { Controller, Delete, Get, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { JobView } from '@app/jobs';
import { JobsService } from '../jobs/jobs.service';
import { JobResultQueryDto } from '../jobs/dto/job-query.dto';
import { AdminRoute } from './admin.guard';
import { Audited } from './audit.interceptor';
import { AdminJobListQueryDto } from './admin.dto';

/** Jobs of every account through the customer's JobsService, with the admin's filter as scope. */
@Controller('admin/v1/jobs')
@AdminRoute()
export class AdminJobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get()
  @ApiOperation({ summary: 'Jobs of every account' })
  async list(@Query() q: AdminJobListQueryDto) {
    const scope = { accountId: q.account_id, environment: q.environment };
    return this.jobs.list(
      scope,
      { status: q.status, type: q.type, cursor: q.cursor, limit: q.limit ?? 50 },
      true,
    );
  }

  @Get(':id')
  @ApiOperation({ summary: 'A job of any account with its results' })
  async get(@Param('id') id: string, @Query() q: JobResultQueryDto): Promise<JobView> {
    return this.jobs.get({}, id, q.cursor, q.page_size ?? 100, true);
  }

  @Delete(':id')
  @Audited('job.cancel')
  @ApiOperation({ summary: 'Cancels a job of any account' })
  async cancel(@Param('id') id: string): Promise<JobView> {
    return this.jobs.cancel({}, id, true);
  }
}
