export { addService, createClient, grpcHealthCheck, serviceDefinition, startGrpcServer } from './grpc-transport';
export type { ClientOptions, ServiceClient, ServiceImpl } from './grpc-transport';
export { fromServiceError, grpcStatusOf, toServiceError } from './error-mapping';
export { GrpcDenseClient, GrpcRerankerClient, GrpcSparseClient } from './service-clients';
export { addDenseService, addHealthService, addRerankerService, addSparseService } from './service-servers';
export { observeGrpc } from './grpc-observer';
export type { GrpcObserver } from './grpc-observer';
