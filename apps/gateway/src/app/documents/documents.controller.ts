import { Body, Controller, Delete, Get, Param, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { http, parseOrThrow } from '@cs/contracts';
import { mimeOf } from '@cs/document-parsing';
import { Auth, type AuthContext } from '../auth/auth-context';
import { fileBytes } from '../http/body-parsers';
import { contentDisposition } from '../http/content-disposition';
import { UuidParam } from '../http/params';
import { FileBody, QueryParams } from '../http/request-shape';
import { PresignedPutGuard, type PresignedPutRequest } from '../uploads/presigned-put.guard';
import { UploadsService } from '../uploads/uploads.service';
import { DocumentIntakeService } from './document-intake.service';
import { DocumentsService } from './documents.service';

@Controller('v1/public/documents')
export class DocumentsController {
  constructor(
    private readonly documents: DocumentsService,
    private readonly intake: DocumentIntakeService,
    private readonly uploads: UploadsService,
  ) {}

  @Post('upload-direct')
  @FileBody()
  @QueryParams('documentName', 'documentDate', 'documentType', 'kind', 'fileName')
  async uploadDirect(@Auth() auth: AuthContext, @Query() query: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const params = parseOrThrow(http.directUploadQuery, query, 'query string');
    const { status, body } = await this.intake.accept(auth, {
      bytes: fileBytes(req),
      mime: mimeOf(req.headers['content-type']),
      fileName: params.fileName ?? params.documentName,
      documentName: params.documentName,
      documentDate: params.documentDate,
      documentType: params.documentType,
      kind: params.kind,
    });
    res.status(status);
    return body;
  }

  @Post('upload-presigned')
  async createPresigned(@Auth() auth: AuthContext, @Body() body: unknown, @Res({ passthrough: true }) res: Response) {
    res.status(200);
    return this.uploads.createPresigned(auth, parseOrThrow(http.presignedUploadBody, body));
  }

  @Get('upload-presigned/:uploadId')
  verify(@Auth() auth: AuthContext, @Param('uploadId', new UuidParam('uploadId')) uploadId: string) {
    return this.uploads.verify(auth, uploadId);
  }

  @Post('upload-presigned-finalize')
  async finalize(@Auth() auth: AuthContext, @Body() body: unknown, @Res({ passthrough: true }) res: Response) {
    const { status, body: answer } = await this.uploads.finalize(auth, parseOrThrow(http.finalizeUploadBody, body));
    res.status(status);
    return answer;
  }

  @Post('upload-from-url')
  async fromUrl(@Auth() auth: AuthContext, @Body() body: unknown, @Res({ passthrough: true }) res: Response) {
    const { status, body: answer } = await this.uploads.fromUrl(auth, parseOrThrow(http.uploadFromUrlBody, body));
    res.status(status);
    return answer;
  }

  @Get()
  @QueryParams('limit', 'offset', 'status', 'kind', 'sort', 'name')
  list(@Auth() auth: AuthContext, @Query() query: unknown) {
    const { limit, offset, status, kind, sort, name } = parseOrThrow(http.listDocumentsQuery, query, 'query string');
    return this.documents.list(auth, { status, kind, name }, limit, offset, sort);
  }

  @Get(':documentId')
  get(@Auth() auth: AuthContext, @Param('documentId', new UuidParam('documentId')) id: string) {
    return this.documents.get(auth, id);
  }

  /**
   * The file as uploaded, to show in the page (`inline`): typed as it was accepted, never sniffed,
   * and sandboxed, so that a file a browser would run (an SVG's script, an HTML page sent as text)
   * runs nothing on the API's origin.
   */
  @Get(':documentId/file')
  async file(
    @Auth() auth: AuthContext,
    @Param('documentId', new UuidParam('documentId')) id: string,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const file = await this.documents.file(auth, id, req.headers['if-none-match']);
    res.setHeader('ETag', file.etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    if (file.bytes === null) {
      res.status(304).end();
      return;
    }
    res
      .status(200)
      .setHeader('Content-Type', file.contentType)
      .setHeader('Content-Disposition', contentDisposition('inline', file.fileName))
      .setHeader('X-Content-Type-Options', 'nosniff')
      .setHeader('Content-Security-Policy', "sandbox; default-src 'none'")
      .end(file.bytes);
  }

  @Delete(':documentId')
  delete(@Auth() auth: AuthContext, @Param('documentId', new UuidParam('documentId')) id: string) {
    return this.documents.delete(auth, id);
  }
}

/** Where presigned URLs point in standalone mode (S3 plays this part in the cluster). */
@Controller('uploads')
export class PresignedPutController {
  constructor(private readonly uploads: UploadsService) {}

  @Put(':uploadId')
  @UseGuards(PresignedPutGuard)
  @FileBody()
  @QueryParams('expires', 'signature')
  async put(@Req() req: PresignedPutRequest, @Res({ passthrough: true }) res: Response) {
    const upload = req.upload;
    if (!upload) throw new Error('PresignedPutGuard did not run');
    await this.uploads.receive(upload, fileBytes(req));
    res.status(200);
    return { uploadId: upload.id, status: 'uploaded' };
  }
}
