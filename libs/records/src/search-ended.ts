import type { SearchStatus } from './types';

/** The channel migration 0009 notifies when a search becomes completed or failed (sent at commit). */
export const SEARCH_ENDED_CHANNEL = 'cs_search_ended';

export interface SearchEnded {
  id: string;
  companyId: string;
  status: Extract<SearchStatus, 'completed' | 'failed'>;
}

/** The trigger's payload, or null when it is not one (a stray NOTIFY on the channel). */
export function parseSearchEnded(payload: string): SearchEnded | null {
  try {
    const value = JSON.parse(payload) as Partial<Record<keyof SearchEnded, unknown>>;
    const { id, companyId, status } = value;
    if (typeof id !== 'string' || typeof companyId !== 'string') return null;
    if (status !== 'completed' && status !== 'failed') return null;
    return { id, companyId, status };
  } catch {
    return null;
  }
}
