import { Controller, Get, Param, Query, Req, Res, UseInterceptors } from '@nestjs/common';
import type { Request, Response } from 'express';
import { http, parseOrThrow } from '@cs/contracts';
import { Auth, type AuthContext } from '../auth/auth-context';
import { ConditionalGetInterceptor } from '../http/conditional-get';
import { UuidParam } from '../http/params';
import { applyWait } from '../http/prefer';
import { QueryParams } from '../http/request-shape';
import { SearchWaitersService } from '../searches/search-waiters.service';
import { GroupsService } from './groups.service';

const listGroupsQuery = http.listQuery(['initiated', 'processing', 'completed', 'failed']);

/** Registered before the searches controller so `groups` is never read as a search id. */
@Controller('v1/public/searches/groups')
export class GroupsController {
  constructor(
    private readonly groups: GroupsService,
    private readonly waiters: SearchWaitersService,
  ) {}

  @Get()
  @QueryParams('limit', 'offset', 'status')
  list(@Auth() auth: AuthContext, @Query() query: unknown) {
    const { limit, offset, status } = parseOrThrow(listGroupsQuery, query, 'query string');
    return this.groups.list(auth, status, limit, offset);
  }

  @Get(':searchGroupId')
  @UseInterceptors(ConditionalGetInterceptor)
  async status(
    @Auth() auth: AuthContext,
    @Param('searchGroupId', new UuidParam('searchGroupId')) id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const wait = this.waiters.waitRequest(req, res);
    const { view, applied } = await this.groups.statusWaiting(auth, id, wait);
    if (applied && wait) applyWait(res, wait.seconds);
    return view;
  }

  @Get(':searchGroupId/results')
  @QueryParams('limit', 'offset')
  @UseInterceptors(ConditionalGetInterceptor)
  async results(
    @Auth() auth: AuthContext,
    @Param('searchGroupId', new UuidParam('searchGroupId')) id: string,
    @Query() query: unknown,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { status, body } = await this.groups.results(auth, id, parseOrThrow(http.groupResultsQuery, query, 'query string'));
    res.status(status);
    return body;
  }
}
