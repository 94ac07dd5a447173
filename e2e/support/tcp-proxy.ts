import * as net from 'node:net';

/**
 * A TCP proxy in front of a server (NATS, Redis) for one service: cut, it drops every connection
 * and refuses new ones, while the other services keep their own connections; restored, it
 * passes them again.
 */
export class TcpProxy {
  private readonly sockets = new Set<net.Socket>();
  private cutOff = false;

  private constructor(private readonly server: net.Server) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = net.createServer();
    const proxy = new TcpProxy(server);
    server.on('connection', (client) => {
      if (proxy.cutOff) return void client.destroy();
      const upstream = net.connect(target.port, target.host);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        proxy.sockets.add(a);
        a.pipe(b);
        a.on('error', () => b.destroy());
        a.on('close', () => (b.destroy(), proxy.sockets.delete(a)));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The proxy's address, in `target`'s URL scheme (`nats:`, `redis:`). */
  urlFor(scheme: string): string {
    return `${scheme}//127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  cut(): void {
    this.cutOff = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.cutOff = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
