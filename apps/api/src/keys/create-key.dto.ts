import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';

export class CreateKeyDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 64, description: 'A label for the key.' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  name?: string;
}
