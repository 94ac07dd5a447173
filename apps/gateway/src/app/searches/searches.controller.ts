import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { http, parseOrThrow } from '@cs/contracts';
import { Auth, type AuthContext } from '../auth/auth-context';
import { UuidParam } from '../http/params';
import { QueryParams } from '../http/request-shape';
import { SearchesService } from './searches.service';

const parse = (body: unknown) => parseOrThrow(http.createSearchBody, body);

@Controller('v1/public/searches')
export class SearchesController {
  constructor(private readonly searches: SearchesService) {}

  @Post('dense')
  @HttpCode(202)
  dense(@Auth() auth: AuthContext, @Body() body: unknown) {
    return this.searches.create(auth, 'dense', parse(body));
  }

  @Post('sparse')
  @HttpCode(202)
  sparse(@Auth() auth: AuthContext, @Body() body: unknown) {
    return this.searches.create(auth, 'sparse', parse(body));
  }

  @Post('hybrid')
  @HttpCode(202)
  hybrid(@Auth() auth: AuthContext, @Body() body: unknown) {
    return this.searches.create(auth, 'hybrid', parse(body));
  }

  @Post('builtin-rerank')
  @HttpCode(202)
  builtinRerank(@Auth() auth: AuthContext, @Body() body: unknown) {
    return this.searches.create(auth, 'builtin-rerank', parse(body));
  }

  @Get(':searchId')
  status(@Auth() auth: AuthContext, @Param('searchId', new UuidParam('searchId')) searchId: string) {
    return this.searches.status(auth, searchId);
  }

  @Get(':searchId/results')
  @QueryParams('limit', 'offset', 'include')
  results(@Auth() auth: AuthContext, @Param('searchId', new UuidParam('searchId')) searchId: string, @Query() query: unknown) {
    return this.searches.results(auth, searchId, parseOrThrow(http.resultsQuery, query, 'query string'));
  }
}
