import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseInterceptors } from '@nestjs/common';
import type { Request, Response } from 'express';
import { http, parseOrThrow } from '@cs/contracts';
import type { api } from '@cs/contracts';
import type { QuerySearchType } from '@cs/search-domain';
import { Auth, type AuthContext } from '../auth/auth-context';
import { ConditionalGetInterceptor } from '../http/conditional-get';
import { UuidParam } from '../http/params';
import { applyWait } from '../http/prefer';
import { QueryParams } from '../http/request-shape';
import { SearchEventsService } from './search-events.service';
import { SearchWaitersService } from './search-waiters.service';
import { SearchesService } from './searches.service';

const parse = (body: unknown) => parseOrThrow(http.createSearchBody, body);

@Controller('v1/public/searches')
export class SearchesController {
  constructor(
    private readonly searches: SearchesService,
    private readonly searchEvents: SearchEventsService,
    private readonly waiters: SearchWaitersService,
  ) {}

  @Post('dense')
  @HttpCode(202)
  dense(@Auth() auth: AuthContext, @Body() body: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.create(auth, 'dense', parse(body), req, res);
  }

  @Post('sparse')
  @HttpCode(202)
  sparse(@Auth() auth: AuthContext, @Body() body: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.create(auth, 'sparse', parse(body), req, res);
  }

  @Post('hybrid')
  @HttpCode(202)
  hybrid(@Auth() auth: AuthContext, @Body() body: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.create(auth, 'hybrid', parse(body), req, res);
  }

  @Post('builtin-rerank')
  @HttpCode(202)
  builtinRerank(@Auth() auth: AuthContext, @Body() body: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.create(auth, 'builtin-rerank', parse(body), req, res);
  }

  /** More like this: the CVs most like one of the company's CVs, itself left out. */
  @Post('similar')
  @HttpCode(202)
  similar(@Auth() auth: AuthContext, @Body() body: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const parsed = parseOrThrow(http.createSimilarSearchBody, body);
    return this.answer(auth, () => this.searches.createSimilar(auth, parsed), req, res);
  }

  /** CVs ranked against a job posting's criteria, each with the criteria it meets and misses. */
  @Post('match')
  @HttpCode(202)
  match(@Auth() auth: AuthContext, @Body() body: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const parsed = parseOrThrow(http.createMatchSearchBody, body);
    return this.answer(auth, () => this.searches.createMatch(auth, parsed), req, res);
  }

  @Get(':searchId')
  @UseInterceptors(ConditionalGetInterceptor)
  async status(
    @Auth() auth: AuthContext,
    @Param('searchId', new UuidParam('searchId')) searchId: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const wait = this.waiters.waitRequest(req, res);
    if (!wait) return this.searches.statusAnswer(auth, searchId);
    const { view, applied } = await this.searches.statusWaiting(auth, searchId, wait);
    if (applied) applyWait(res, wait.seconds);
    return view;
  }

  @Get(':searchId/events')
  events(
    @Auth() auth: AuthContext,
    @Param('searchId', new UuidParam('searchId')) searchId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.searchEvents.stream(auth, searchId, req, res);
  }

  @Get(':searchId/results')
  @QueryParams('limit', 'offset', 'include')
  @UseInterceptors(ConditionalGetInterceptor)
  results(@Auth() auth: AuthContext, @Param('searchId', new UuidParam('searchId')) searchId: string, @Query() query: unknown) {
    return this.searches.results(auth, searchId, parseOrThrow(http.resultsQuery, query, 'query string'));
  }

  /** 202 with the creation body; 200 with the status view when the client waits and the search ends meanwhile. */
  private create(auth: AuthContext, type: QuerySearchType, body: http.CreateSearchBody, req: Request, res: Response) {
    return this.answer(auth, () => this.searches.create(auth, type, body), req, res);
  }

  private async answer(auth: AuthContext, create: () => Promise<api.SearchCreated>, req: Request, res: Response) {
    const wait = this.waiters.waitRequest(req, res);
    const { created, ended, applied } = await this.searches.createWaiting(auth, create, wait);
    if (applied && wait) applyWait(res, wait.seconds);
    if (!ended) return created;
    res.status(200);
    return ended;
  }
}
