import type { api } from '@cs/contracts';
import { ApiError, withRateLimitRetry, type ApiClient } from './api';
import { announce, byId, el, replaceChildren } from './dom';

/** Told on `document` whenever an upload changes the company's documents. */
export const DOCUMENTS_CHANGED = 'candidate-search:documents-changed';
import { waitFor } from './waiting';

/** The types the API takes, by file extension (the bytes must match: the API checks them). */
const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  txt: 'text/plain',
};
/** The API's limit for a CV file, on every route. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/**
 * Up to this size a file goes as the body of `upload-direct` (one request, counted once against
 * the upload limits); above it through `upload-presigned`, whose PUT goes to the storage itself
 * (S3 in a cluster) rather than through the gateway, which reads few file bodies at once.
 */
export const DIRECT_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;
/** A document not yet parsed after this long is left to the documents list. */
const PROCESSING_DEADLINE_MS = 180_000;

type Route = 'direct' | 'presigned';
type Phase = 'queued' | 'uploading' | 'processing' | 'completed' | 'duplicate' | 'invalid' | 'failed' | 'refused';
const FINAL: readonly Phase[] = ['completed', 'duplicate', 'invalid', 'failed', 'refused'];
const PHASE_TEXT: Record<Phase, string> = {
  queued: 'queued',
  uploading: 'uploading',
  processing: 'processing',
  completed: 'completed',
  duplicate: 'duplicate',
  invalid: 'invalid',
  failed: 'failed',
  refused: 'refused',
};

interface Entry {
  file: File;
  route: Route;
  item: HTMLLIElement;
  phase: HTMLSpanElement;
  message: HTMLSpanElement;
}

const formatSize = (bytes: number): string =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
/** A CV file's type, from its extension or its browser type; undefined for one the API does not take. */
export const typeOf = (file: File): string | undefined => {
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  return (extension && TYPES[extension]) || Object.values(TYPES).find((type) => type === file.type);
};
export const thisMonth = (): string => {
  const now = new Date();
  return `${String(now.getMonth() + 1).padStart(2, '0')}-${now.getFullYear()}`;
};

/**
 * Drag-and-drop and a file picker; each file gets a line that follows it through the upload and
 * the API's processing to completed, duplicate, invalid or failed, with the API's message.
 * Files go one at a time (the upload limits are 10 per 10 s), waiting out a 429.
 */
export class UploadPanel {
  private readonly zone = byId('drop-zone', HTMLDivElement);
  private readonly input = byId('file-input', HTMLInputElement);
  private readonly date = byId('document-date', HTMLInputElement);
  private readonly list = byId('upload-list', HTMLUListElement);
  private readonly summary = byId('upload-summary', HTMLParagraphElement);
  private queue: Promise<void> = Promise.resolve();
  private abort = new AbortController();

  constructor(private readonly client: () => ApiClient | null) {
    this.date.value = thisMonth();
    this.input.addEventListener('change', () => {
      this.add([...(this.input.files ?? [])]);
      this.input.value = '';
    });
    for (const name of ['dragenter', 'dragover'] as const)
      this.zone.addEventListener(name, (event) => {
        event.preventDefault();
        if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
        this.zone.classList.add('dragging');
      });
    this.zone.addEventListener('dragleave', () => this.zone.classList.remove('dragging'));
    this.zone.addEventListener('drop', (event) => {
      event.preventDefault();
      this.zone.classList.remove('dragging');
      this.add([...(event.dataTransfer?.files ?? [])]);
    });
  }

  /** Stops following documents (the key was forgotten). */
  stop(): void {
    this.abort.abort(new Error('stopped'));
    this.abort = new AbortController();
    this.queue = Promise.resolve();
  }

  private add(files: File[]): void {
    if (!files.length) return;
    const date = this.date.value.trim();
    if (!/^(0[1-9]|1[0-2])-(19|20)\d\d$/.test(date)) {
      announce(this.summary, 'The CV date must read MM-YYYY, for example 03-2024.');
      this.date.setAttribute('aria-invalid', 'true');
      this.date.focus();
      return;
    }
    this.date.removeAttribute('aria-invalid');
    announce(this.summary, `${files.length} file${files.length === 1 ? '' : 's'} queued.`);
    const signal = this.abort.signal;
    for (const file of files) {
      const entry = this.line(file);
      this.queue = this.queue.then(() => this.upload(entry, date, signal)).catch(() => undefined);
    }
  }

  private line(file: File): Entry {
    const route: Route = file.size > DIRECT_UPLOAD_MAX_BYTES ? 'presigned' : 'direct';
    const phase = el('span', { class: 'phase phase-queued' }, [PHASE_TEXT.queued]);
    const message = el('span', { class: 'upload-message' });
    const item = el('li', { class: 'upload' }, [
      el('span', { class: 'file-name' }, [file.name]),
      el('span', { class: 'file-size' }, [formatSize(file.size)]),
      el('span', { class: 'route' }, [route === 'direct' ? 'direct upload' : 'presigned upload']),
      phase,
      message,
    ]);
    item.dataset.phase = 'queued';
    this.list.prepend(item);
    return { file, route, item, phase, message };
  }

  private set(entry: Entry, phase: Phase, message = ''): void {
    entry.item.dataset.phase = phase;
    entry.phase.className = `phase phase-${phase}`;
    replaceChildren(entry.phase, [PHASE_TEXT[phase]]);
    replaceChildren(entry.message, [message]);
    if (FINAL.includes(phase)) announce(this.summary, `${entry.file.name}: ${PHASE_TEXT[phase]}${message ? `. ${message}` : ''}`);
    // The library beside the drop zone reads its page again (a new document, a state reached).
    if (phase !== 'queued') document.dispatchEvent(new CustomEvent(DOCUMENTS_CHANGED));
  }

  private async upload(entry: Entry, documentDate: string, signal: AbortSignal): Promise<void> {
    const client = this.client();
    if (!client || signal.aborted) return;
    const type = typeOf(entry.file);
    if (!type) {
      this.set(entry, 'refused', 'Not a PDF, DOCX, DOC or plain-text file, the types the API takes.');
      return;
    }
    if (entry.file.size > MAX_FILE_BYTES) {
      this.set(entry, 'refused', `${formatSize(entry.file.size)} is over the API's limit of 10 MB for a CV file.`);
      return;
    }
    this.set(entry, 'uploading');
    const documentName = entry.file.name.replace(/\.[a-z0-9]+$/i, '').slice(0, 255) || entry.file.name;
    let accepted: api.UploadAccepted;
    try {
      const onWait = (seconds: number, message: string) => this.set(entry, 'uploading', `${message} Retrying in ${seconds} s.`);
      accepted = await withRateLimitRetry(
        () =>
          entry.route === 'direct'
            ? this.direct(client, entry.file, type, documentName, documentDate, signal)
            : this.presigned(client, entry.file, type, documentName, documentDate, signal),
        onWait,
        signal,
      );
    } catch (error) {
      if (signal.aborted) return;
      this.set(entry, 'refused', error instanceof ApiError ? `${error.message} (${error.status})` : String(error));
      return;
    }
    if (accepted.duplicate) {
      this.set(entry, 'duplicate', `These bytes were uploaded before, as a document now ${accepted.status}.`);
      return;
    }
    this.set(entry, 'processing', accepted.message);
    void this.follow(client, entry, accepted.documentId, signal);
  }

  private async direct(
    client: ApiClient,
    file: File,
    type: string,
    documentName: string,
    documentDate: string,
    signal: AbortSignal,
  ): Promise<api.UploadAccepted> {
    const query = new URLSearchParams({ documentName, documentDate, fileName: file.name });
    const answer = await client.request<api.UploadAccepted>('POST', `/v1/public/documents/upload-direct?${query.toString()}`, {
      file,
      contentType: type,
      signal,
    });
    return answer.body;
  }

  private async presigned(
    client: ApiClient,
    file: File,
    type: string,
    documentName: string,
    documentDate: string,
    signal: AbortSignal,
  ): Promise<api.UploadAccepted> {
    const created = await client.post<api.PresignedUpload>(
      '/v1/public/documents/upload-presigned',
      { fileName: file.name, contentType: type, fileSize: file.size },
      { signal },
    );
    await client.request('PUT', uploadTarget(created.body.presignedUrl), {
      file,
      contentType: created.body.headers['Content-Type'],
      withoutKey: true,
      signal,
    });
    const finalized = await client.post<api.UploadAccepted>(
      '/v1/public/documents/upload-presigned-finalize',
      { uploadId: created.body.uploadId, documentName, documentDate },
      { signal },
    );
    return finalized.body;
  }

  /** Reads the document until the API is done with it. */
  private async follow(client: ApiClient, entry: Entry, documentId: string, signal: AbortSignal): Promise<void> {
    try {
      // Many documents read at once can spend the read limit (100 a minute): a 429 is waited out, not a failure.
      const read = () => client.get<api.Document>(`/v1/public/documents/${encodeURIComponent(documentId)}`, { signal });
      const document = await waitFor(
        () =>
          withRateLimitRetry(read, (seconds) => this.set(entry, 'processing', `Reads paused ${seconds} s by the read limit.`), signal, 5),
        (d) => d.status === 'completed' || d.status === 'invalid' || d.status === 'failed',
        { deadlineMs: PROCESSING_DEADLINE_MS, signal },
      );
      const phase: Phase = document.status === 'completed' ? 'completed' : document.status === 'invalid' ? 'invalid' : 'failed';
      this.set(entry, phase, document.error?.message ?? document.message ?? '');
    } catch (error) {
      if (signal.aborted) return;
      this.set(entry, 'failed', error instanceof Error ? error.message : String(error));
    }
  }
}

/**
 * The standalone service signs its own upload URLs for PUBLIC_BASE_URL, which may name another
 * host than the one this page was loaded from (localhost against 127.0.0.1): its own target
 * (`/uploads/{id}?expires&signature`, whose signature covers no host) is sent to this origin.
 * Any other target (S3) is used as given; the page's policy allows S3's public endpoint.
 */
export function uploadTarget(presignedUrl: string): string {
  const url = new URL(presignedUrl, location.href);
  const own = /^\/uploads\/[^/]+$/.test(url.pathname) && url.searchParams.has('signature') && url.searchParams.has('expires');
  return own ? `${url.pathname}${url.search}` : url.href;
}
