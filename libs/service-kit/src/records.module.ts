import { Global, Module } from '@nestjs/common';
import { SQL_CLIENT, type SqlClient } from '@cs/ports';
import { CompaniesRepository, DocumentsRepository, SearchesRepository, UploadsRepository } from '@cs/records';

const repositories = [CompaniesRepository, DocumentsRepository, SearchesRepository, UploadsRepository];

/** The repositories of the system of record, over whichever SqlClient the mode binds. */
@Global()
@Module({
  providers: repositories.map((Repository) => ({
    provide: Repository,
    useFactory: (sql: SqlClient) => new Repository(sql),
    inject: [SQL_CLIENT],
  })),
  exports: repositories,
})
export class RecordsModule {}
