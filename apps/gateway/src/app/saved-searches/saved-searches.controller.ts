import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { http, parseOrThrow } from '@cs/contracts';
import { Auth, type AuthContext } from '../auth/auth-context';
import { UuidParam } from '../http/params';
import { QueryParams } from '../http/request-shape';
import { SavedSearchesService, savedSearchUrl } from './saved-searches.service';

@Controller('v1/public/saved-searches')
export class SavedSearchesController {
  constructor(private readonly savedSearches: SavedSearchesService) {}

  @Post()
  async create(@Auth() auth: AuthContext, @Body() body: unknown, @Res({ passthrough: true }) res: Response) {
    const created = await this.savedSearches.create(auth, parseOrThrow(http.createSavedSearchBody, body));
    res.status(201).setHeader('Location', savedSearchUrl(created.savedSearchId));
    return created;
  }

  @Get()
  @QueryParams('limit', 'offset')
  list(@Auth() auth: AuthContext, @Query() query: unknown) {
    const { limit, offset } = parseOrThrow(http.listSavedSearchesQuery, query, 'query string');
    return this.savedSearches.list(auth, limit, offset);
  }

  @Get(':savedSearchId')
  get(@Auth() auth: AuthContext, @Param('savedSearchId', new UuidParam('savedSearchId')) id: string) {
    return this.savedSearches.get(auth, id);
  }

  @Delete(':savedSearchId')
  @HttpCode(204)
  async delete(@Auth() auth: AuthContext, @Param('savedSearchId', new UuidParam('savedSearchId')) id: string) {
    await this.savedSearches.delete(auth, id);
  }

  @Get(':savedSearchId/new')
  @QueryParams('since', 'limit', 'offset')
  newMatches(@Auth() auth: AuthContext, @Param('savedSearchId', new UuidParam('savedSearchId')) id: string, @Query() query: unknown) {
    const { since, limit, offset } = parseOrThrow(http.savedSearchNewQuery, query, 'query string');
    return this.savedSearches.newMatches(auth, id, since, limit, offset);
  }
}
