/** The channel migration 0011 notifies when a CV is deleted or a field a result shows changes (sent at commit). */
export const DOCUMENT_CHANGED_CHANNEL = 'cs_document_changed';

export interface DocumentChanged {
  id: string;
  companyId: string;
}

/** The trigger's payload, or null when it is not one (a stray NOTIFY on the channel). */
export function parseDocumentChanged(payload: string): DocumentChanged | null {
  try {
    const { id, companyId } = JSON.parse(payload) as Partial<Record<keyof DocumentChanged, unknown>>;
    return typeof id === 'string' && typeof companyId === 'string' ? { id, companyId } : null;
  } catch {
    return null;
  }
}
