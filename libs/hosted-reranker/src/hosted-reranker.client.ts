/** The request shapes of the rerank APIs we speak. */
export type RerankerShape = 'cohere' | 'jina' | 'voyage' | 'tei';

export interface HostedRerankerOptions {
  /** Full endpoint, e.g. https://api.cohere.com/v2/rerank, https://api.jina.ai/v1/rerank, https://api.voyageai.com/v1/rerank, http://tei:8080/rerank. */
  url: string;
  /** Which API's request shape to send; Cohere's by default. */
  shape?: RerankerShape;
  apiKey: string | undefined;
  model: string;
  /** The whole budget for the call, retries included. */
  timeoutMs: number;
  /** Attempts in all, on 429, 5xx, network errors and timeouts. */
  attempts?: number;
}

export interface ExternalRerankResult {
  index: number;
  relevanceScore: number;
}

export class ExternalRerankerError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ExternalRerankerError';
  }
}

/**
 * Client of a hosted `/rerank` endpoint in any of the four request shapes we speak: Cohere and
 * Jina (`{model, query, documents, top_n}`), Voyage (`top_k` instead of `top_n`) and Hugging Face
 * TEI (`{query, texts}`, no model). One deadline covers every attempt; retries back off with full
 * jitter.
 */
export class HostedRerankerClient {
  constructor(private readonly options: HostedRerankerOptions) {}

  get provider(): string {
    const shape = this.options.shape ?? 'cohere';
    return shape === 'tei' ? 'tei' : `${shape}:${this.options.model}`;
  }

  /** The request body in the provider's shape. */
  body(query: string, documents: string[], topN: number): Record<string, unknown> {
    const n = Math.min(topN, documents.length);
    switch (this.options.shape ?? 'cohere') {
      case 'voyage':
        return { model: this.options.model, query, documents, top_k: n };
      case 'tei':
        return { query, texts: documents, raw_scores: false, truncate: true };
      default:
        return { model: this.options.model, query, documents, top_n: n };
    }
  }

  async rerank(query: string, documents: string[], topN: number): Promise<ExternalRerankResult[]> {
    const deadline = Date.now() + this.options.timeoutMs;
    const attempts = this.options.attempts ?? 3;
    let lastError: ExternalRerankerError = new ExternalRerankerError('reranker was not called', true);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      try {
        return await this.call(query, documents, topN, remaining);
      } catch (error) {
        lastError = error instanceof ExternalRerankerError ? error : new ExternalRerankerError(String(error), true);
        if (!lastError.retryable) throw lastError;
        const pause = Math.random() * Math.min(2000, 200 * 2 ** attempt);
        if (Date.now() + pause >= deadline) break;
        await new Promise((r) => setTimeout(r, pause));
      }
    }
    throw lastError;
  }

  private async call(query: string, documents: string[], topN: number, timeoutMs: number): Promise<ExternalRerankResult[]> {
    let response: Response;
    try {
      response = await fetch(this.options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify(this.body(query, documents, topN)),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new ExternalRerankerError(
        timedOut ? `reranker timed out after ${timeoutMs} ms` : `reranker unreachable: ${String(error)}`,
        true,
      );
    }
    if (!response.ok) {
      const retryable = response.status === 429 || response.status >= 500;
      throw new ExternalRerankerError(`reranker answered HTTP ${response.status}`, retryable);
    }
    return parseResults(await response.json(), documents.length);
  }
}

/** Reads Cohere/Jina (`results`), Voyage (`data`) and TEI (a bare array) answers. */
export function parseResults(body: unknown, documentCount: number): ExternalRerankResult[] {
  const list = Array.isArray(body)
    ? body
    : ((body as { results?: unknown[]; data?: unknown[] })?.results ?? (body as { data?: unknown[] })?.data);
  if (!Array.isArray(list)) throw new ExternalRerankerError('reranker answer has no results', true);
  return list.map((item) => {
    const { index, relevance_score, score } = item as { index?: unknown; relevance_score?: unknown; score?: unknown };
    const value = typeof relevance_score === 'number' ? relevance_score : score;
    if (typeof index !== 'number' || index < 0 || index >= documentCount || typeof value !== 'number') {
      throw new ExternalRerankerError('reranker answer has a malformed result', true);
    }
    return { index, relevanceScore: value };
  });
}
