export { APP_CONFIG, SENTENCE_EMBEDDER } from './tokens';
export { ConfigModule } from './config.module';
export { RecordsModule } from './records.module';
export { EmbeddingsModule } from './embeddings.module';
