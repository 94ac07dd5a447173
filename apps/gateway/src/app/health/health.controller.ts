import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ProcessLifecycle } from '@cs/service-kit';
import { ReadinessService } from './readiness';

/** /healthz: the process answers. /readyz: it can serve (each dependency checked), and is not draining. */
@Controller()
export class HealthController {
  constructor(
    private readonly readiness: ReadinessService,
    private readonly lifecycle: ProcessLifecycle,
  ) {}

  /** Alive, and (standalone) its job workers running: a 503 here asks for a restart. */
  @Get('healthz')
  alive(@Res({ passthrough: true }) res: Response) {
    const { ok, problems } = this.lifecycle.liveness();
    res.status(ok ? 200 : 503);
    return ok ? { status: 'ok' } : { status: 'failing', problems };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) res: Response) {
    if (this.lifecycle.draining) {
      res.status(503);
      return { status: 'draining', checks: {} };
    }
    const { ready, checks } = await this.readiness.check();
    res.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'not ready', checks };
  }
}
