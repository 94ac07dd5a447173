export { GRAPH_FILES, OnnxEncoderError, OnnxSentenceEncoder } from './onnx-sentence-encoder';
export type { Pooling, SentenceEncoderOptions } from './onnx-sentence-encoder';
