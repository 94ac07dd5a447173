import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** A whole HTTP/1.1 400 with the JSON error body, for a socket no response object owns; it closes the connection. */
function badRequest(message: string): string {
  const body = JSON.stringify({ error: 'invalid_request', message });
  return `HTTP/1.1 400 ${STATUS_CODES[400]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * Two requests Node answers itself, before any listener and without the error body every other
 * 4xx has: an HTTP/1.1 request without Host (a bare 400, RFC 9112 requires the 400) and CONNECT
 * (no answer at all: the connection is closed). Here both get a 400 with the body. Wired after
 * the other request listeners are in place, which it wraps.
 */
export function answerRequestsNodeRefuses(server: Server): void {
  // With this on, Node answers a Host-less request before emitting 'request'; off, the check is the one below.
  Object.assign(server, { requireHostHeader: false });
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      const body = JSON.stringify({ error: 'invalid_request', message: 'an HTTP/1.1 request needs a Host header' });
      res.shouldKeepAlive = false;
      res.writeHead(400, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) }).end(body);
      return;
    }
    for (const listener of listeners) listener.call(server, req, res);
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.end(badRequest('CONNECT is not served: this is not a proxy'));
  });
}
