import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { http, parseOrThrow } from '@cs/contracts';
import { Auth, type AuthContext } from '../auth/auth-context';
import { contentDisposition } from '../http/content-disposition';
import { UuidParam } from '../http/params';
import { QueryParams } from '../http/request-shape';
import { ShortlistsService, shortlistUrl } from './shortlists.service';

@Controller('v1/public/shortlists')
export class ShortlistsController {
  constructor(private readonly shortlists: ShortlistsService) {}

  @Post()
  async create(@Auth() auth: AuthContext, @Body() body: unknown, @Res({ passthrough: true }) res: Response) {
    const created = await this.shortlists.create(auth, parseOrThrow(http.createShortlistBody, body));
    res.status(201).setHeader('Location', shortlistUrl(created.shortlistId));
    return created;
  }

  @Get()
  @QueryParams('limit', 'offset')
  list(@Auth() auth: AuthContext, @Query() query: unknown) {
    const { limit, offset } = parseOrThrow(http.listShortlistsQuery, query, 'query string');
    return this.shortlists.list(auth, limit, offset);
  }

  @Get(':shortlistId')
  get(@Auth() auth: AuthContext, @Param('shortlistId', new UuidParam('shortlistId')) id: string) {
    return this.shortlists.get(auth, id);
  }

  @Delete(':shortlistId')
  @HttpCode(204)
  async delete(@Auth() auth: AuthContext, @Param('shortlistId', new UuidParam('shortlistId')) id: string) {
    await this.shortlists.delete(auth, id);
  }

  @Post(':shortlistId/items')
  async addItem(
    @Auth() auth: AuthContext,
    @Param('shortlistId', new UuidParam('shortlistId')) id: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { status, body: item } = await this.shortlists.addItem(auth, id, parseOrThrow(http.addShortlistItemBody, body));
    res.status(status);
    return item;
  }

  @Delete(':shortlistId/items/:documentId')
  @HttpCode(204)
  async removeItem(
    @Auth() auth: AuthContext,
    @Param('shortlistId', new UuidParam('shortlistId')) id: string,
    @Param('documentId', new UuidParam('documentId')) documentId: string,
  ) {
    await this.shortlists.removeItem(auth, id, documentId);
  }

  /** Written here rather than returned: a ZIP streams as it is made. */
  @Get(':shortlistId/export')
  @QueryParams('format')
  async export(
    @Auth() auth: AuthContext,
    @Param('shortlistId', new UuidParam('shortlistId')) id: string,
    @Query() query: unknown,
    @Res() res: Response,
  ) {
    const { format } = parseOrThrow(http.exportShortlistQuery, query, 'query string');
    if (format === 'csv') {
      const { fileName, csv } = await this.shortlists.exportCsv(auth, id);
      res
        .status(200)
        .setHeader('Content-Type', 'text/csv; charset=utf-8')
        .setHeader('Content-Disposition', contentDisposition('attachment', fileName))
        .send(csv);
      return;
    }
    try {
      await this.shortlists.exportZip(auth, id, (fileName) =>
        res
          .status(200)
          .setHeader('Content-Type', 'application/zip')
          .setHeader('Content-Disposition', contentDisposition('attachment', fileName)),
      );
    } catch (error) {
      // Once the ZIP has begun, only cutting the connection tells the client it is incomplete;
      // before, the error is answered as every error is, not as a ZIP.
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.removeHeader('Content-Type');
      res.removeHeader('Content-Disposition');
      throw error;
    }
  }
}
