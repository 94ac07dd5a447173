import type { SearchAttributes, SearchFilter } from '@cs/search-filters';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { DomainError } from '@cs/contracts';
import { BuiltinEncoder, builtinVersionOf, feedbackQuery, type Chunk } from '@cs/embeddings';
import {
  DENSE_ENCODER,
  DENSE_ENCODER_NEXT,
  VECTOR_SPACES,
  type ChunkVector,
  type DenseClient,
  type DenseEncoder,
  type DenseModel,
  type DenseModels,
  type DenseSearchResult,
  type VectorHit,
  type VectorIndex,
  type VectorSpaces,
} from '@cs/ports';
import { InjectConfig } from '@cs/service-kit';

/** How often a replica looks whether another one switched searches to the next model (cluster). */
export const SWITCH_CHECK_MS = 5_000;
/** How long an old set outlives a switch: every replica reading it has noticed the switch by then. */
export const OLD_SET_GRACE_MS = 3 * SWITCH_CHECK_MS;

/** A model and the set of its vectors. */
interface DenseSet {
  encoder: DenseEncoder;
  index: VectorIndex;
}

/** The service cannot start: the vectors searches would read were made by another model than DENSE_MODEL's. */
export class DenseModelMismatchError extends Error {
  constructor(recorded: DenseModel, configured: DenseModel, spec: string) {
    const made = `${recorded.id} (${recorded.dimensions} dimensions)`;
    const wanted = `DENSE_MODEL=${spec} is ${configured.id} (${configured.dimensions} dimensions)`;
    // Only a version too old for this code to read still ends here (olderBuiltin reads the others).
    const sameKind = recorded.id.split(':')[0] === 'builtin' && configured.id.split(':')[0] === 'builtin';
    super(
      sameKind
        ? `the vectors searches read were made by ${made}, another version of the builtin model, but ${wanted}, ` +
            `which cannot read them. Remove the old vectors (DATA_DIR/vectors, or the Qdrant collection), start, and run ` +
            `\`npm run admin -- reindex --dense\` to embed every CV again (meanwhile dense searches find only the CVs done so far)`
        : `the vectors searches read were made by ${made}, but ${wanted}. A model change needs every CV embedded again: ` +
            `start with DENSE_MODEL set to the model that made them and DENSE_MODEL_NEXT=${spec}, run ` +
            `\`npm run admin -- reindex --dense\`, and when it ends set DENSE_MODEL=${spec} and unset DENSE_MODEL_NEXT`,
    );
    this.name = 'DenseModelMismatchError';
  }
}

/**
 * Embeds CVs (the whole and each passage) and queries, and searches the vectors of the model the
 * store records as active. With DENSE_MODEL_NEXT set, every CV is also embedded by the next
 * model into its own set, which a reindex completes and then activates.
 */
@Injectable()
export class DenseService implements DenseClient, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(DenseService.name);
  private active!: DenseSet;
  private next: DenseSet | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    @Inject(DENSE_ENCODER) private readonly encoder: DenseEncoder,
    @Inject(DENSE_ENCODER_NEXT) private readonly nextEncoder: DenseEncoder | null,
    @Inject(VECTOR_SPACES) private readonly spaces: VectorSpaces,
    @InjectConfig('denseModel') private readonly denseModel: AppConfig['denseModel'],
    @InjectConfig('denseModelNext') private readonly denseModelNext: AppConfig['denseModelNext'],
  ) {}

  async onModuleInit(): Promise<void> {
    const recorded = await this.spaces.active();
    const configured = this.encoder.model;
    const next = this.nextEncoder;
    // Built once: an earlier builtin version's embedder costs its own start-up work.
    const older = recorded && this.olderBuiltin(recorded);
    if (next?.model.id === configured.id) {
      throw new Error(`DENSE_MODEL_NEXT names the model DENSE_MODEL already names (${configured.id}): unset DENSE_MODEL_NEXT`);
    }
    if (recorded === null || recorded.id === configured.id) {
      this.active = await this.setOf(this.encoder);
      if (recorded === null) await this.spaces.activate(configured);
      this.next = next ? await this.setOf(next) : null;
    } else if (next?.model.id === recorded.id) {
      this.active = await this.setOf(next);
      this.logger.warn(
        `searches read ${next.model.id}, which a reindex made: set DENSE_MODEL=${this.denseModelNext?.spec} and unset DENSE_MODEL_NEXT`,
      );
    } else if (older) {
      // A release changed the builtin model: its earlier version still reads the stored vectors
      // exactly, while a reindex makes the next model's (the new version's, which ingestion
      // starts by itself, or DENSE_MODEL_NEXT's).
      this.active = await this.setOf(older);
      this.next = await this.setOf(next ?? this.encoder);
      this.logger.warn(
        `the builtin dense model changed (${recorded.id} -> ${configured.id}): searches read the old vectors until a reindex has made ${this.next.encoder.model.id}'s`,
      );
    } else {
      throw new DenseModelMismatchError(recorded, configured, this.denseModel.spec);
    }
    if (this.next) this.every(SWITCH_CHECK_MS, () => this.followSwitch());
    // Sets a switch left behind (a restart within its grace) go too.
    else this.removeOldSetsLater(this.active.encoder.model);
  }

  onApplicationShutdown(): void {
    for (const timer of this.timers) clearTimeout(timer);
  }

  models(): Promise<DenseModels> {
    return Promise.resolve({ active: this.active.encoder.model, next: this.next?.encoder.model ?? null });
  }

  async upsert(companyId: string, documentId: string, text: string, chunks: Chunk[], attributes?: SearchAttributes): Promise<number> {
    // While a reindex may run, a new CV goes into both sets. The next model failing must not stop
    // ingestion: the reindex's last pass embeds again every CV completed since it began.
    const [stored] = await Promise.all([
      this.embedInto(this.active, companyId, documentId, text, chunks, attributes),
      this.next &&
        this.embedInto(this.next, companyId, documentId, text, chunks, attributes).catch((error: unknown) =>
          this.nextFailed('embedding a CV', error),
        ),
    ]);
    return stored;
  }

  async setAttributes(companyId: string, documentId: string, attributes: SearchAttributes): Promise<boolean> {
    const [set] = await Promise.all([
      this.active.index.setAttributes(companyId, documentId, attributes),
      this.next?.index
        .setAttributes(companyId, documentId, attributes)
        .catch((error: unknown) => this.nextFailed("setting a CV's attributes", error)),
    ]);
    return set;
  }

  reindex(
    companyId: string,
    documentId: string,
    text: string,
    chunks: Chunk[],
    modelId: string,
    attributes?: SearchAttributes,
  ): Promise<number> {
    const target = this.next ?? this.active;
    if (target.encoder.model.id !== modelId) {
      throw new DomainError(
        'conflict',
        `this dense service fills ${target.encoder.model.id}, not ${modelId}: its settings changed during the reindex`,
      );
    }
    return this.embedInto(target, companyId, documentId, text, chunks, attributes);
  }

  async activateNext(modelId: string): Promise<DenseModel> {
    const next = this.next;
    if (!next) throw new DomainError('conflict', 'no DENSE_MODEL_NEXT is set: there is no model to switch to');
    if (next.encoder.model.id !== modelId) {
      throw new DomainError(
        'conflict',
        `this dense service's next model is ${next.encoder.model.id}, not ${modelId}, which the reindex filled`,
      );
    }
    await this.spaces.activate(next.encoder.model);
    this.switchTo(next);
    return next.encoder.model;
  }

  /** Vectors of several texts by the active model; an empty vector where it reads nothing of a text. */
  async embedMany(texts: string[]): Promise<Float32Array[]> {
    return (await this.active.encoder.embedPassages(texts)).map((v) => v ?? new Float32Array(0));
  }

  async delete(companyId: string, documentId: string): Promise<number> {
    // A CV left in the next set is harmless: results show only CVs that are still there.
    const [deleted] = await Promise.all([
      this.active.index.delete(companyId, documentId),
      this.next?.index.delete(companyId, documentId).catch((error: unknown) => this.nextFailed('deleting a CV', error)),
    ]);
    return deleted;
  }

  private nextFailed(what: string, error: unknown): number {
    this.logger.warn(`${what} in ${this.next?.encoder.model.id ?? 'the next model'}'s set failed: ${(error as Error).message}`);
    return 0;
  }

  /**
   * The query's nearest CVs. A model that asks for query feedback (the builtin one) searches again
   * with the query moved towards its best few CVs' centroid (see QUERY_FEEDBACK).
   */
  async search(
    companyId: string,
    query: string,
    topK: number,
    wordContexts?: ReadonlyMap<string, string>,
    filter?: SearchFilter | null,
  ): Promise<DenseSearchResult> {
    const { encoder, index } = this.active;
    const { vector, unknownWords } = await encoder.embedQuery(query, { wordContexts });
    const found = (hits: VectorHit[]) => ({ hits, noKnownWords: false, unknownWords, model: encoder.model });
    if (!vector) return { hits: [], noKnownWords: true, unknownWords, model: encoder.model };
    const feedback = encoder.queryFeedback;
    if (!feedback) return found(await index.search(companyId, vector, topK, filter));
    // Feedback reads the best CVs that pass: the query moves towards what the filtered list holds.
    const first = await index.search(companyId, vector, Math.max(topK, feedback.minDocuments), filter);
    if (first.length < feedback.minDocuments) return found(first.slice(0, topK));
    const best = await index.documentVectors(
      companyId,
      first.slice(0, feedback.documents).map((hit) => hit.documentId),
    );
    return found(await index.search(companyId, feedbackQuery(vector, [...best.values()], feedback.weight), topK, filter));
  }

  async similar(companyId: string, documentId: string, topK: number, filter?: SearchFilter | null): Promise<DenseSearchResult> {
    const { encoder, index } = this.active;
    const vector = (await index.documentVectors(companyId, [documentId])).get(documentId);
    if (!vector) return { hits: [], noKnownWords: true, unknownWords: [], model: encoder.model };
    return { hits: await index.search(companyId, vector, topK, filter), noKnownWords: false, unknownWords: [], model: encoder.model };
  }

  count(companyId: string): Promise<number> {
    return this.active.index.count(companyId);
  }

  /** The earlier builtin version that made `recorded`, when DENSE_MODEL is builtin and this code still reads that version. */
  private olderBuiltin(recorded: DenseModel): DenseEncoder | null {
    const version = builtinVersionOf(recorded.id);
    if (!(this.encoder instanceof BuiltinEncoder) || version === null) return null;
    const older = this.encoder.atVersion(version);
    return older?.model.id === recorded.id ? older : null;
  }

  private async setOf(encoder: DenseEncoder): Promise<DenseSet> {
    return { encoder, index: await this.spaces.open(encoder.model) };
  }

  private async embedInto(
    set: DenseSet,
    companyId: string,
    documentId: string,
    text: string,
    chunks: Chunk[],
    attributes?: SearchAttributes,
  ): Promise<number> {
    const { whole, passages } = await set.encoder.embedCv(
      text,
      chunks.map((c) => c.text),
    );
    const vectors: ChunkVector[] = [];
    if (whole) vectors.push({ chunkIndex: -1, vector: whole });
    passages.forEach((vector, i) => {
      if (vector) vectors.push({ chunkIndex: chunks[i].index, vector });
    });
    await set.index.upsert(companyId, documentId, vectors, attributes);
    return vectors.length;
  }

  /** From now on searches read `next`; the old set goes once no replica can still be reading it. */
  private switchTo(next: DenseSet): void {
    this.active = next;
    this.next = null;
    const advice = this.denseModelNext
      ? `: set DENSE_MODEL=${this.denseModelNext.spec} and unset DENSE_MODEL_NEXT before the next start`
      : '';
    this.logger.log(`searches now read ${next.encoder.model.id}${advice}`);
    this.removeOldSetsLater(next.encoder.model);
  }

  /** Removes every set but `kept`'s once no replica can still be reading them. */
  private removeOldSetsLater(kept: DenseModel): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.spaces
        .removeAllBut(kept)
        .catch((error: unknown) => this.logger.warn(`removing the old vector sets failed: ${(error as Error).message}`));
    }, OLD_SET_GRACE_MS);
    timer.unref();
    this.timers.add(timer);
  }

  /** Another replica may have switched searches to the next model (cluster): this one follows. */
  private async followSwitch(): Promise<void> {
    const next = this.next;
    if (!next) return;
    const recorded = await this.spaces.active();
    if (recorded?.id === next.encoder.model.id) this.switchTo(next);
  }

  private every(ms: number, work: () => Promise<void>): void {
    const run = () => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        work()
          .catch((error: unknown) => this.logger.warn(`checking the active dense model failed: ${(error as Error).message}`))
          .finally(() => {
            if (this.next) run();
          });
      }, ms);
      timer.unref();
      this.timers.add(timer);
    };
    run();
  }
}
