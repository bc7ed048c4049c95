import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ConflictError, NotFoundError } from '@app/common';
import { Plan } from '@app/persistence';
import { AuthCache } from './auth-cache';

export interface PlanView {
  id: number;
  name: string;
  rate_per_minute: number;
  monthly_quota: number;
  max_concurrent_pages: number;
}

export interface PlanLimits {
  rate_per_minute: number;
  monthly_quota: number;
  max_concurrent_pages: number;
}

const toPlanView = (p: Plan): PlanView => ({
  id: p.id,
  name: p.name,
  rate_per_minute: p.ratePerMinute,
  monthly_quota: p.monthlyQuota,
  max_concurrent_pages: p.maxConcurrentPages,
});

/** Plans are rows an admin edits; a change applies to every account on the plan at once. */
@Injectable()
export class PlansService {
  constructor(
    @InjectRepository(Plan) private readonly plans: Repository<Plan>,
    private readonly cache: AuthCache,
  ) {}

  async list(): Promise<PlanView[]> {
    return (await this.plans.find({ order: { monthlyQuota: 'ASC', id: 'ASC' } })).map(toPlanView);
  }

  async create(name: string, limits: PlanLimits): Promise<PlanView> {
    if (await this.plans.existsBy({ name })) throw new ConflictError(`a plan named ${name} already exists`);
    await this.plans.insert({ name, ...columns(limits) });
    return toPlanView(await this.plans.findOneByOrFail({ name }));
  }

  /** Limits live in the auth cache of every replica: they are dropped so the next request sees these. */
  async update(name: string, limits: Partial<PlanLimits>): Promise<PlanView> {
    const plan = await this.plans.findOneBy({ name });
    if (!plan) throw new NotFoundError('plan not found');
    const patch = columns(limits);
    if (Object.keys(patch).length) {
      await this.plans.update({ id: plan.id }, patch);
      await this.cache.invalidate();
    }
    return toPlanView(await this.plans.findOneByOrFail({ id: plan.id }));
  }
}

function columns(l: Partial<PlanLimits>): Partial<Plan> {
  return {
    ...(l.rate_per_minute !== undefined ? { ratePerMinute: l.rate_per_minute } : {}),
    ...(l.monthly_quota !== undefined ? { monthlyQuota: l.monthly_quota } : {}),
    ...(l.max_concurrent_pages !== undefined ? { maxConcurrentPages: l.max_concurrent_pages } : {}),
  };
}
