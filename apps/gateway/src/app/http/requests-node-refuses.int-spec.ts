import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerRequestsNodeRefuses } from './requests-node-refuses';

/** Sends raw bytes and reads until the server closes the connection (or 5 s pass). */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error(`no close within 5 s; so far: ${JSON.stringify(answer)}`)));
  });
}

const statusAndBody = (answer: string) => {
  const [head, body] = answer.split('\r\n\r\n');
  return {
    statusLine: head.split('\r\n')[0],
    connection: /\r\nconnection: close\r\n/i.test(`${head}\r\n`),
    body: JSON.parse(body) as unknown,
  };
};

describe('the requests Node answers itself, answered with the error body', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('served'));
    answerRequestsNodeRefuses(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers an HTTP/1.1 request without Host with 400 and the JSON error body, closing the connection', async () => {
    expect(statusAndBody(await exchange(port, 'GET / HTTP/1.1\r\n\r\n'))).toEqual({
      statusLine: 'HTTP/1.1 400 Bad Request',
      connection: true,
      body: { error: 'invalid_request', message: 'an HTTP/1.1 request needs a Host header' },
    });
  });

  it('answers CONNECT with 400 and the JSON error body, where Node would close the connection unanswered', async () => {
    expect(statusAndBody(await exchange(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'))).toEqual({
      statusLine: 'HTTP/1.1 400 Bad Request',
      connection: true,
      body: { error: 'invalid_request', message: 'CONNECT is not served: this is not a proxy' },
    });
  });

  it('passes every other request to the listeners it wraps, an HTTP/1.0 one without Host too', async () => {
    const answer = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(answer.endsWith('served')).toBe(true);
    expect((await exchange(port, 'GET / HTTP/1.0\r\n\r\n')).endsWith('served')).toBe(true);
  });
});
