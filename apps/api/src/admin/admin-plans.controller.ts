import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { PlansService, PlanView } from '@app/auth';
import { AdminRoute } from './admin.guard';
import { Audited } from './audit.interceptor';
import { CreatePlanDto, UpdatePlanDto } from './admin.dto';

@Controller('admin/v1/plans')
@AdminRoute()
export class AdminPlansController {
  constructor(private readonly plans: PlansService) {}

  @Get()
  @ApiOperation({ summary: 'Plans' })
  async list(): Promise<{ data: PlanView[] }> {
    return { data: await this.plans.list() };
  }

  @Post()
  @HttpCode(201)
  @Audited('plan.create', (r) => (r as PlanView).name)
  @ApiOperation({ summary: 'Creates a plan' })
  async create(@Body() body: CreatePlanDto): Promise<PlanView> {
    const { name, ...limits } = body;
    return this.plans.create(name, limits);
  }

  /** Applies to every account on the plan from its next request. */
  @Patch(':name')
  @Audited('plan.update', 'name')
  @ApiOperation({ summary: "Changes a plan's limits" })
  async update(@Param('name') name: string, @Body() body: UpdatePlanDto): Promise<PlanView> {
    return this.plans.update(name, body);
  }
}
