import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { http, parseOrThrow } from '@cs/contracts';
import { Auth, type AuthContext } from '../auth/auth-context';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { UuidParam } from '../http/params';
import { QueryParams } from '../http/request-shape';
import { RateLimited } from '../rate-limit/rate-limit';
import { SearchesService } from './searches.service';

const parse = (body: unknown) => parseOrThrow(http.createSearchBody, body);

@Controller('v1/public/searches')
@UseGuards(ApiKeyGuard)
export class SearchesController {
  constructor(private readonly searches: SearchesService) {}

  @Post('dense')
  @HttpCode(202)
  @RateLimited('search')
  dense(@Auth() auth: AuthContext, @Body() body: unknown) {
    return this.searches.create(auth, 'dense', parse(body));
  }

  @Post('sparse')
  @HttpCode(202)
  @RateLimited('search')
  sparse(@Auth() auth: AuthContext, @Body() body: unknown) {
    return this.searches.create(auth, 'sparse', parse(body));
  }

  @Post('hybrid')
  @HttpCode(202)
  @RateLimited('search')
  hybrid(@Auth() auth: AuthContext, @Body() body: unknown) {
    return this.searches.create(auth, 'hybrid', parse(body));
  }

  @Post('builtin-rerank')
  @HttpCode(202)
  @RateLimited('search')
  builtinRerank(@Auth() auth: AuthContext, @Body() body: unknown) {
    return this.searches.create(auth, 'builtin-rerank', parse(body));
  }

  @Get(':searchId')
  @RateLimited('read')
  status(@Auth() auth: AuthContext, @Param('searchId', new UuidParam('searchId')) searchId: string) {
    return this.searches.status(auth, searchId);
  }

  @Get(':searchId/results')
  @RateLimited('read')
  @QueryParams('limit', 'offset', 'include', 'fields')
  results(@Auth() auth: AuthContext, @Param('searchId', new UuidParam('searchId')) searchId: string, @Query() query: unknown) {
    return this.searches.results(auth, searchId, parseOrThrow(http.resultsQuery, query, 'query string'));
  }
}
