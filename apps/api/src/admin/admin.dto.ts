import { IntersectionType, OmitType, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ENVIRONMENTS, Environment, type AccountStatus } from '@app/persistence';
import { PageQueryDto } from '../common/page-query.dto';
import { JobListQueryDto } from '../jobs/dto/job-query.dto';
import { DeliveryListQueryDto, ReplayFilterDto } from '../webhooks/dto/deliveries-query.dto';

const ACCOUNT_STATUSES: AccountStatus[] = ['active', 'suspended'];

export class CreateAccountDto {
  @IsEmail()
  @MaxLength(254)
  email: string;

  @IsString()
  @Length(1, 32)
  plan: string;
}

export class AccountListQueryDto extends PageQueryDto {
  /** Any part of the e-mail address. */
  @IsOptional()
  @IsString()
  @Length(1, 254)
  email?: string;

  @IsOptional()
  @IsIn(ACCOUNT_STATUSES)
  status?: AccountStatus;

  @IsOptional()
  @IsString()
  @Length(1, 32)
  plan?: string;
}

/** Change plan, suspend or reactivate. */
export class UpdateAccountDto {
  @IsOptional()
  @IsString()
  @Length(1, 32)
  plan?: string;

  @IsOptional()
  @IsIn(ACCOUNT_STATUSES)
  status?: AccountStatus;
}

export class IssueKeyDto {
  @IsIn(ENVIRONMENTS)
  environment: Environment;

  @IsOptional()
  @IsString()
  @Length(1, 64)
  name?: string;
}

/** Narrows an admin read or bulk action to one account and/or environment. */
class OwnerFilterDto {
  @IsOptional()
  @Matches(/^acc_[0-9a-z]{26}$/, { message: 'must be an account id' })
  account_id?: string;

  @IsOptional()
  @IsIn(ENVIRONMENTS)
  environment?: Environment;
}

export class AdminJobListQueryDto extends IntersectionType(JobListQueryDto, OwnerFilterDto) {}
export class AdminDeliveryListQueryDto extends IntersectionType(DeliveryListQueryDto, OwnerFilterDto) {}
export class AdminReplayFilterDto extends IntersectionType(ReplayFilterDto, OwnerFilterDto) {}

export class RotateSecretQueryDto {
  @IsIn(ENVIRONMENTS)
  environment: Environment;

  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  expire_now?: boolean;
}

export class CreatePlanDto {
  @Matches(/^[a-z0-9][a-z0-9_-]{0,31}$/, { message: 'must be 1-32 of a-z, 0-9, _ and -' })
  name: string;

  @Max(1_000_000)
  @Min(1)
  @IsInt()
  rate_per_minute: number;

  @Max(2_000_000_000)
  @Min(0)
  @IsInt()
  monthly_quota: number;

  @Max(100_000)
  @Min(1)
  @IsInt()
  max_concurrent_pages: number;
}

export class UpdatePlanDto extends PartialType(OmitType(CreatePlanDto, ['name'] as const)) {}

export class AuditQueryDto extends PageQueryDto {
  @IsOptional()
  @MaxLength(32)
  @IsString()
  admin_id?: string;

  @IsOptional()
  @MaxLength(64)
  @IsString()
  action?: string;

  @IsOptional()
  @MaxLength(64)
  @IsString()
  target?: string;
}

export class CreateAdminDto {
  @IsEmail()
  @MaxLength(254)
  email: string;

  /** A label for the admin's first key. */
  @IsOptional()
  @IsString()
  @Length(1, 64)
  key_name?: string;
}

export class IssueAdminKeyDto {
  @IsOptional()
  @IsString()
  @Length(1, 64)
  name?: string;
}
