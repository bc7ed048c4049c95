import { IsOptional, IsString, Length } from 'class-validator';

export class CreateKeyDto {
  @IsOptional()
  @IsString()
  @Length(1, 64)
  name?: string;
}
