import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { Response } from 'express';
import { processState } from '@cs/service-kit';
import { ReadinessService } from './readiness';

/** /healthz: the process answers. /readyz: it can serve (each dependency checked), and is not draining. */
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get('healthz')
  @HttpCode(200)
  alive() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) res: Response) {
    if (processState.draining) {
      res.status(503);
      return { status: 'draining', checks: {} };
    }
    const { ready, checks } = await this.readiness.check();
    res.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'not ready', checks };
  }
}
