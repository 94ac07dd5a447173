import { Module, type DynamicModule } from '@nestjs/common';
import { SQL_CLIENT, type SqlClient } from '@cs/ports';
import {
  CompaniesRepository,
  DenseReindexesRepository,
  DocumentsRepository,
  SavedSearchesRepository,
  SearchesRepository,
  ShortlistsRepository,
  UploadsRepository,
} from '@cs/records';
import type { ModuleImport } from './ports.module';

const repositories = [
  CompaniesRepository,
  DenseReindexesRepository,
  DocumentsRepository,
  SavedSearchesRepository,
  SearchesRepository,
  ShortlistsRepository,
  UploadsRepository,
];

/** The repositories of the system of record, over the SqlClient that `stores` binds. */
@Module({})
export class RecordsModule {
  static over(stores: ModuleImport): DynamicModule {
    return {
      module: RecordsModule,
      imports: [stores],
      providers: repositories.map((Repository) => ({
        provide: Repository,
        useFactory: (sql: SqlClient) => new Repository(sql),
        inject: [SQL_CLIENT],
      })),
      exports: repositories,
    };
  }
}
