export { CrossEncoderError, OnnxCrossEncoder, rerankWithCrossEncoder } from './onnx-cross-encoder';
export type { CrossEncoderOptions, Scored } from './onnx-cross-encoder';
