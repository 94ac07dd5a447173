// Jest's node environment gives each test file its own typed-array classes; native addons such as
// onnxruntime-node build their outputs from the process's own, which then fail `instanceof` checks
// in the test's realm. Test files that load such an addon share the process's classes instead.
const { TestEnvironment } = require('jest-environment-node');

const TYPED_ARRAYS = [
  'ArrayBuffer',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
];

class NativeTypedArraysEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of TYPED_ARRAYS) this.global[name] = globalThis[name];
  }
}

module.exports = NativeTypedArraysEnvironment;
