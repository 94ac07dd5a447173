import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { http, parseOrThrow } from '@cs/contracts';
import { Auth, type AuthContext } from '../auth/auth-context';
import { UuidParam } from '../http/params';
import { QueryParams } from '../http/request-shape';
import { GroupsService } from './groups.service';

const listGroupsQuery = http.listQuery(['initiated', 'processing', 'completed', 'failed']);

/** Registered before the searches controller so `groups` is never read as a search id. */
@Controller('v1/public/searches/groups')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get()
  @QueryParams('limit', 'offset', 'status')
  list(@Auth() auth: AuthContext, @Query() query: unknown) {
    const { limit, offset, status } = parseOrThrow(listGroupsQuery, query, 'query string');
    return this.groups.list(auth, status, limit, offset);
  }

  @Get(':searchGroupId')
  status(@Auth() auth: AuthContext, @Param('searchGroupId', new UuidParam('searchGroupId')) id: string) {
    return this.groups.status(auth, id);
  }

  @Get(':searchGroupId/results')
  @QueryParams('limit', 'offset')
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
