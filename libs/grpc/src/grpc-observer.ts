/**
 * What the process's metrics learn of each gRPC call, in go-grpc-prometheus' terms: the service's
 * full name, the method, the status code's name (`OK`, `UNAVAILABLE`) and, for servers, the time.
 */
export interface GrpcObserver {
  serverHandled(service: string, method: string, code: string, seconds: number): void;
  clientHandled(service: string, method: string, code: string): void;
}

let observer: GrpcObserver | undefined;

/** Set once by the process's bootstrap; calls before it, or in tests, are not counted. */
export function observeGrpc(next: GrpcObserver): void {
  observer = next;
}

export function grpcObserver(): GrpcObserver | undefined {
  return observer;
}
