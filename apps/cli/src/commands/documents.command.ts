import type { DocumentKind, DocumentStatus } from '@candidate-search/client/node';
import type { CliContext } from '../cli-context';
import { CliError, ExitCode } from '../exit-codes';
import { renderDocument, renderDocumentList } from '../output/documents-format';
import { confirm } from '../prompts';

export const DOCUMENT_STATUSES: readonly DocumentStatus[] = ['uploading', 'pending', 'completed', 'failed', 'invalid'];

/** `documents list`: a page of the company's documents, newest first. */
export async function listDocuments(
  ctx: CliContext,
  options: { status?: DocumentStatus; kind?: DocumentKind; limit: number; offset: number },
): Promise<ExitCode> {
  const { client } = await ctx.connect();
  const list = await client.listDocuments({ status: options.status, kind: options.kind, limit: options.limit, offset: options.offset });
  ctx.out.result(list, () => renderDocumentList(list, ctx.out.width));
  return ExitCode.ok;
}

/** `documents get`: one document and what was read from it. */
export async function getDocument(ctx: CliContext, documentId: string, options: { text: boolean }): Promise<ExitCode> {
  const { client } = await ctx.connect();
  const doc = await client.getDocument(documentId);
  ctx.out.result(doc, () => renderDocument(doc, options));
  return ExitCode.ok;
}

/**
 * `documents delete`: asks first on a terminal; elsewhere --yes is required, so that a script
 * never deletes by a mistyped line and a prompt nobody answers.
 */
export async function deleteDocument(ctx: CliContext, documentId: string, options: { yes: boolean }): Promise<ExitCode> {
  const { client } = await ctx.connect();
  if (!options.yes) {
    if (!ctx.io.stdin.isTTY) throw new CliError('refusing to delete without --yes when stdin is not a terminal', ExitCode.usage);
    const doc = await client.getDocument(documentId);
    // As rm -i: answering no is not a failure.
    if (!(await confirm(`Delete ${doc.documentName} (${doc.documentId})?`, ctx.io.stdin, ctx.io.stderr))) {
      ctx.out.result({ deleted: false, documentId }, () => 'Not deleted.');
      return ExitCode.ok;
    }
  }
  const deleted = await client.deleteDocument(documentId);
  ctx.out.result(deleted, () => `Deleted ${deleted.documentName} (${deleted.documentId}).`);
  return ExitCode.ok;
}
