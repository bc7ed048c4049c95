import { IsEmail, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { ENVIRONMENTS, Environment } from '@app/persistence';

export class CreateAccountDto {
  @IsEmail()
  @MaxLength(254)
  email: string;

  @IsString()
  @Length(1, 32)
  plan: string;
}

export class IssueKeyDto {
  @IsIn(ENVIRONMENTS)
  environment: Environment;

  @IsOptional()
  @IsString()
  @Length(1, 64)
  name?: string;
}
