import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { SQL_CLIENT, type SqlClient } from '@cs/ports';

/** /healthz: the process answers. /readyz: one check per dependency. */
@Controller()
export class HealthController {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  @Get('healthz')
  @HttpCode(200)
  alive() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) res: Response) {
    const checks: Record<string, 'up' | 'down'> = {};
    try {
      await this.sql.query('SELECT 1');
      checks.database = 'up';
    } catch {
      checks.database = 'down';
    }
    const ok = Object.values(checks).every((c) => c === 'up');
    res.status(ok ? 200 : 503);
    return { status: ok ? 'ready' : 'not ready', checks };
  }
}
