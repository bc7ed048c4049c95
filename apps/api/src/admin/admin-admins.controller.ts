import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminIdentity, AdminKeyView, AdminsService, AdminView, IssuedAdminKey } from '@app/auth';
import { AdminRoute } from './admin.guard';
import { CurrentAdmin } from './admin-request';
import { AuditLog } from './audit-log.service';
import { Audited } from './audit.interceptor';
import { AuditQueryDto, CreateAdminDto, IssueAdminKeyDto } from './admin.dto';

/** Admins, their keys and the audit log. ADMIN_TOKEN (`bootstrap`) creates the first admin here. */
@Controller('admin/v1')
@AdminRoute()
export class AdminAdminsController {
  constructor(
    private readonly admins: AdminsService,
    private readonly audit: AuditLog,
  ) {}

  /** Who is calling: lets the dashboard tell an admin key from a customer key. */
  @Get('whoami')
  @ApiOperation({ summary: 'The calling admin' })
  whoami(@CurrentAdmin() admin: AdminIdentity): AdminIdentity {
    return admin;
  }

  @Get('admins')
  @ApiOperation({ summary: 'Admins' })
  async list(): Promise<{ data: AdminView[] }> {
    return { data: await this.admins.list() };
  }

  /** A new admin and its first `osk_admin_` key, shown once. */
  @Post('admins')
  @HttpCode(201)
  @Audited('admin.create', (r) => (r as { admin: AdminView }).admin.id)
  @ApiOperation({ summary: 'Creates an admin with a first key, shown once' })
  async create(@Body() body: CreateAdminDto) {
    return this.admins.create(body.email, body.key_name ?? null);
  }

  @Get('admins/:id/keys')
  @ApiOperation({ summary: "An admin's keys" })
  async listKeys(@Param('id') id: string): Promise<{ data: AdminKeyView[] }> {
    return { data: await this.admins.listKeys(id) };
  }

  @Post('admins/:id/keys')
  @HttpCode(201)
  @Audited('admin_key.issue', (r) => (r as IssuedAdminKey).id)
  @ApiOperation({ summary: 'Issues another admin key, shown once' })
  async issueKey(@Param('id') id: string, @Body() body: IssueAdminKeyDto): Promise<IssuedAdminKey> {
    return this.admins.issueKey(id, body.name ?? null);
  }

  @Delete('admins/:id/keys/:keyId')
  @Audited('admin_key.revoke', 'keyId')
  @ApiOperation({ summary: 'Revokes an admin key' })
  async revokeKey(@Param('id') id: string, @Param('keyId') keyId: string): Promise<AdminKeyView> {
    return this.admins.revokeKey(id, keyId);
  }

  @Get('audit')
  @ApiOperation({ summary: 'The audit log of admin writes, newest first' })
  async auditLog(@Query() q: AuditQueryDto) {
    return this.audit.list({
      adminId: q.admin_id,
      action: q.action,
      target: q.target,
      cursor: q.cursor,
      limit: q.limit ?? 50,
    });
  }
}
