import type { Writable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import archiver from 'archiver';
import { stringify } from 'csv-stringify/sync';
import { DomainError, invalid, notFound, http, type api } from '@cs/contracts';
import { BLOB_STORE, type BlobStore } from '@cs/ports';
import {
  ShortlistsRepository,
  type ShortlistCandidate,
  type ShortlistItemRecord,
  type ShortlistRecord,
  type ShortlistRefusal,
} from '@cs/records';
import type { AuthContext } from '../auth/auth-context';

export const shortlistUrl = (id: string) => `/v1/public/shortlists/${id}`;
const LIMITS = { listsPerCompany: http.MAX_SHORTLISTS, itemsPerList: http.MAX_SHORTLIST_ITEMS };

const summaryView = (list: ShortlistRecord): api.ShortlistSummary => ({
  shortlistId: list.id,
  name: list.name,
  itemsCount: list.itemsCount,
  createdAt: list.createdAt.toISOString(),
  updatedAt: list.updatedAt.toISOString(),
  shortlistUrl: shortlistUrl(list.id),
});

const itemView = (item: ShortlistItemRecord): api.ShortlistItem => ({
  documentId: item.documentId,
  documentName: item.documentName,
  note: item.note,
  addedAt: item.addedAt.toISOString(),
  documentUrl: `/v1/public/documents/${item.documentId}`,
});

function refused(refusal: ShortlistRefusal, name?: string): DomainError {
  switch (refusal) {
    case 'name_taken':
      return new DomainError('conflict', `a shortlist named ${JSON.stringify(name)} already exists: choose another name`);
    case 'too_many_lists':
      return new DomainError('conflict', `the company already keeps ${http.MAX_SHORTLISTS} shortlists, the most it may: delete one first`);
    case 'too_many_items':
      return new DomainError('conflict', `the shortlist already holds ${http.MAX_SHORTLIST_ITEMS} CVs, the most one may: remove one first`);
    case 'no_list':
      return notFound('shortlist');
    case 'no_cv':
      return new DomainError('not_found', 'documentId: the company has no document with that id');
    case 'job_posting':
      return invalid('documentId names a job posting: a shortlist holds CVs');
  }
}

/** The columns of a shortlist's CSV export, in order. */
export const EXPORT_COLUMNS = [
  'documentId',
  'documentName',
  'firstName',
  'lastName',
  'email',
  'phone',
  'linkedin',
  'location',
  'domain',
  'seniority',
  'experienceYears',
  'skills',
  'note',
  'addedAt',
] as const;

const csvOf = (candidates: ShortlistCandidate[]) =>
  stringify(candidates.map(exportRow), { header: true, columns: [...EXPORT_COLUMNS], escape_formulas: true });

function exportRow(c: ShortlistCandidate): Record<(typeof EXPORT_COLUMNS)[number], string> {
  const place = c.profile?.location;
  return {
    documentId: c.documentId,
    documentName: c.documentName,
    firstName: c.contact?.firstName ?? '',
    lastName: c.contact?.lastName ?? '',
    email: c.contact?.email ?? '',
    phone: c.contact?.phone ?? '',
    linkedin: c.contact?.linkedin ?? '',
    location: place ? [place.city, place.region, place.country].filter(Boolean).join(', ') : '',
    domain: c.profile?.domain ?? '',
    seniority: c.profile?.seniorityLevel ?? '',
    experienceYears: c.profile?.experienceYears == null ? '' : String(c.profile.experienceYears),
    skills: (c.profile?.skills ?? []).join('; '),
    note: c.note ?? '',
    addedAt: c.addedAt.toISOString(),
  };
}

/** A file's name inside the ZIP: its place on the list first, so names never collide and keep the list's order. */
const entryName = (at: number, fileName: string) => `${String(at + 1).padStart(4, '0')} ${fileName.replace(/[/\\\u0000-\u001f]/g, '_')}`;

/** A company's shortlists: named lists of its CVs, each with a note, exported as CSV or as a ZIP of their files. */
@Injectable()
export class ShortlistsService {
  private readonly logger = new Logger(ShortlistsService.name);

  constructor(
    private readonly shortlists: ShortlistsRepository,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  async create(auth: AuthContext, body: http.CreateShortlistBody): Promise<api.Shortlist> {
    const made = await this.shortlists.create(auth.company.id, body.name, LIMITS);
    if (typeof made === 'string') throw refused(made, body.name);
    return { ...summaryView(made), items: [] };
  }

  async list(auth: AuthContext, limit: number, offset: number): Promise<api.ShortlistList> {
    const { rows, total } = await this.shortlists.list(auth.company.id, limit, offset);
    return { data: rows.map(summaryView), pagination: { limit, offset, total, hasMore: offset + rows.length < total } };
  }

  async get(auth: AuthContext, id: string): Promise<api.Shortlist> {
    const [list, items] = await Promise.all([this.shortlists.get(auth.company.id, id), this.shortlists.items(auth.company.id, id)]);
    if (!list) throw notFound('shortlist');
    return { ...summaryView(list), items: items.map(itemView) };
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    if (!(await this.shortlists.delete(auth.company.id, id))) throw notFound('shortlist');
  }

  /** 201 when the CV was added, 200 when it was there and its note was replaced. */
  async addItem(auth: AuthContext, id: string, body: http.AddShortlistItemBody): Promise<{ status: 200 | 201; body: api.ShortlistItem }> {
    const note = body.note?.trim() ? body.note : null;
    // Ids are compared as the database stores them: lower case, as the path's ids are read.
    const done = await this.shortlists.addItem(auth.company.id, id, body.documentId.toLowerCase(), note, LIMITS);
    if (typeof done === 'string') throw refused(done);
    return { status: done.added ? 201 : 200, body: itemView(done.item) };
  }

  async removeItem(auth: AuthContext, id: string, documentId: string): Promise<void> {
    if (!(await this.shortlists.removeItem(auth.company.id, id, documentId))) throw notFound('CV on this shortlist');
  }

  /**
   * The list as CSV, one row a CV with its contact, profile and note. A cell a spreadsheet would
   * read as a formula (=, +, -, @ first) is written with a quote before it.
   */
  async exportCsv(auth: AuthContext, id: string): Promise<{ fileName: string; csv: string }> {
    const { list, candidates } = await this.read(auth, id);
    return { fileName: `${list.name}.csv`, csv: csvOf(candidates) };
  }

  /**
   * The list's original files in a ZIP, with its CSV first (`shortlist.csv`), written to `out` as
   * it is made. A file is read only once the client has taken what came before it, so memory
   * holds a file or two whatever the list's size; a client that goes away stops the export. A
   * CV deleted meanwhile (its file gone) is left out; any other failure to read a file rejects,
   * and the caller cuts the connection, so a partial ZIP never looks whole. Throws before
   * anything is written when the list is not the company's.
   */
  async exportZip(auth: AuthContext, id: string, start: (fileName: string) => Writable): Promise<void> {
    const { list, candidates } = await this.read(auth, id);
    const out = start(`${list.name}.zip`);
    const archive = archiver('zip', { zlib: { level: 1 } });
    // Always heard, so that an error while a file is being read crashes nothing; the next step rejects with it.
    let failure: Error | null = null;
    const fail = (error: Error) => {
      failure ??= error;
    };
    archive.on('error', fail);
    archive.on('warning', fail);
    const gone = () => new Error('the client closed the connection before the ZIP was complete');
    // Settles on the first of: the event wanted, an archive error, the client going away.
    const until = (event: 'entry' | 'drain' | 'end', append?: () => void) =>
      new Promise<void>((resolve, reject) => {
        if (failure || out.destroyed) {
          reject(failure ?? gone());
          return;
        }
        const source = event === 'drain' ? out : archive;
        const settle = (error?: Error) => {
          source.off(event, onEvent);
          archive.off('error', onError);
          out.off('close', onClose);
          if (error) reject(error);
          else resolve();
        };
        const onEvent = () => settle();
        const onError = (error: Error) => settle(error);
        const onClose = () => settle(gone());
        source.once(event, onEvent);
        archive.once('error', onError);
        out.once('close', onClose);
        append?.();
      });
    const add = async (bytes: Buffer | string, name: string) => {
      if (out.writableNeedDrain) await until('drain');
      await until('entry', () => archive.append(bytes, { name, date: new Date(0) }));
    };
    archive.pipe(out);
    try {
      await add(csvOf(candidates), 'shortlist.csv');
      for (const [at, c] of candidates.entries()) {
        if (!(await this.blobs.stat(c.storageKey))) {
          this.logger.warn({ msg: 'a shortlisted CV has no file', documentId: c.documentId });
          continue;
        }
        await add(await this.blobs.get(c.storageKey), entryName(at, c.fileName));
      }
      await until('end', () => void archive.finalize());
    } catch (error) {
      archive.abort();
      throw error;
    }
  }

  private async read(auth: AuthContext, id: string): Promise<{ list: ShortlistRecord; candidates: ShortlistCandidate[] }> {
    const list = await this.shortlists.get(auth.company.id, id);
    if (!list) throw notFound('shortlist');
    return { list, candidates: await this.shortlists.candidates(auth.company.id, id) };
  }
}
