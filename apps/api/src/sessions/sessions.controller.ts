import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AuthContext, CurrentAuth } from '@app/auth';
import { ApiErrors, CustomerApi } from '../common/openapi';
import { SessionListDto } from './session.dto';
import { SessionsService } from './sessions.service';

/** The caller's sessions in its key's environment (docs/api.md, Sessions). */
@Controller('v1/sessions')
@CustomerApi('sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  @ApiOperation({ summary: "The live sessions of the caller's environment" })
  @ApiOkResponse({ type: SessionListDto })
  async list(@CurrentAuth() auth: AuthContext): Promise<SessionListDto> {
    return { data: await this.sessions.list(auth) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Forgets a session and its cookies and storage' })
  @ApiNoContentResponse({ description: 'Forgotten.' })
  @ApiErrors(404)
  async forget(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<void> {
    await this.sessions.forget(auth, id);
  }
}
