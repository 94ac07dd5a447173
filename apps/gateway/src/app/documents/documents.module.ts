import { Module, type DynamicModule } from '@nestjs/common';
import type { ModuleImport } from '@cs/wiring';
import { GatewaySecretsModule } from '../gateway-secrets';
import { PresignedPutGuard } from '../uploads/presigned-put.guard';
import { UploadsService } from '../uploads/uploads.service';
import { DocumentIntakeService } from './document-intake.service';
import { DocumentsController, PresignedPutController } from './documents.controller';
import { DocumentsService } from './documents.service';

/** CVs and their uploads: direct, presigned, from a URL; reading and deleting them. */
@Module({})
export class DocumentsModule {
  /** `ports` binds what its providers inject; `searches` is the gateway's SearchesModule (a deleted CV drops the kept pages showing it). */
  static register(ports: ModuleImport, searches: ModuleImport): DynamicModule {
    return {
      module: DocumentsModule,
      imports: [ports, searches, GatewaySecretsModule],
      controllers: [DocumentsController, PresignedPutController],
      providers: [DocumentsService, DocumentIntakeService, UploadsService, PresignedPutGuard],
    };
  }
}
