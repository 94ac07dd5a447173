import { randomUUID } from 'node:crypto';
import { openPglite } from '@cs/pglite';
import { DocumentsRepository } from './documents.repository';
import { MIGRATIONS, migrate } from './migrations';

/** A database as a release before profiles held skills, degree, languages and a place left it. */
async function databaseBefore(migrationId: string) {
  const sql = await openPglite(null);
  await sql.exec(`CREATE TABLE schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  for (const migration of MIGRATIONS.slice(
    0,
    MIGRATIONS.findIndex((m) => m.id === migrationId),
  )) {
    await sql.exec(migration.sql);
    await sql.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
  }
  return sql;
}

const OLD_PROFILE = {
  domain: 'Healthcare',
  specialization: 'Registered Nurse',
  seniorityLevel: 'senior',
  experienceYears: 9,
  technicalStack: ['Epic', 'Patient Care'],
  industries: ['Healthcare'],
  recentExpertise: ['Epic'],
  hasManagement: false,
};

describe('profiles stored before skills, degree, languages and the place were read', () => {
  it('read back after the migration with the new fields empty, unchanged in the database, and are listed for the refresh until read again', async () => {
    const sql = await databaseBefore('0014_understanding_version');
    const company = randomUUID();
    const [withProfile, without] = [randomUUID(), randomUUID()];
    await sql.query('INSERT INTO companies (id, name) VALUES ($1, $2)', [company, 'before']);
    for (const [id, profile] of [
      [withProfile, OLD_PROFILE],
      [without, null],
    ] as const)
      await sql.query(
        `INSERT INTO documents (id, company_id, document_name, document_type, document_date, status, content_hash, file_name,
           file_size, content_type, storage_key, extracted_text, profile, chunks)
         VALUES ($1, $2, 'cv', 'cv', '03-2025', 'completed', $4, 'cv.txt', 10, 'text/plain', $4, 'Registered Nurse. Epic.', $3, '[]')`,
        [id, company, profile === null ? null : JSON.stringify(profile), id],
      );
    expect((await migrate(sql))[0]).toBe('0014_understanding_version');

    const documents = new DocumentsRepository(sql);
    expect((await documents.get(company, withProfile))?.profile).toEqual({
      ...OLD_PROFILE,
      skills: [],
      degree: null,
      languages: [],
      location: null,
    });
    expect((await documents.get(company, without))?.profile).toBeNull();
    // The row itself is as the earlier release wrote it: that release still reads it.
    const [row] = await sql.query<{ profile: unknown }>('SELECT profile FROM documents WHERE id = $1', [withProfile]);
    expect(row.profile).toEqual(OLD_PROFILE);
    const stale = await documents.readBefore(1, null, 10);
    expect(stale.map((d) => d.id).sort()).toEqual([withProfile, without].sort());
    expect(stale[0]).toMatchObject({ companyId: company, text: 'Registered Nurse. Epic.', documentDate: '03-2025' });

    const understanding = { summary: null, contact: null, profile: null, understandingVersion: 1 };
    expect(await documents.storeUnderstanding(withProfile, understanding)).toBe(true);
    // Read again by a version as new already: left alone.
    expect(await documents.storeUnderstanding(withProfile, understanding)).toBe(false);
    expect((await documents.readBefore(1, null, 10)).map((d) => d.id)).toEqual([without]);
    expect(await documents.readBefore(1, { companyId: company, documentId: without }, 10)).toEqual([]);
    await sql.close();
  });
});
