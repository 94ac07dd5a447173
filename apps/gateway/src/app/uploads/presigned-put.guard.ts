import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { invalid } from '@cs/contracts';
import type { UploadRecord } from '@cs/records';
import { UploadsService } from './uploads.service';

export type PresignedPutRequest = Request & { upload?: UploadRecord };

/** The presigned PUT's signature, expiry and state, checked before a byte of the file is read. */
@Injectable()
export class PresignedPutGuard implements CanActivate {
  constructor(private readonly uploads: UploadsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<PresignedPutRequest>();
    const uploadId = String(req.params.uploadId);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uploadId)) throw invalid('uploadId must be a UUID');
    req.upload = await this.uploads.admitPut(uploadId.toLowerCase(), req.query.expires, req.query.signature, req.headers['content-type']);
    return true;
  }
}
