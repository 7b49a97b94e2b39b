import net from 'node:net';
import { Transform } from 'node:stream';

/** A way to the server that a test can cut for everything in the browser, its service worker included. */
export interface UnpluggableNetwork {
  /** The origin to browse instead of the server's own. */
  origin: string;
  unplug(): void;
  plugIn(): void;
  /**
   * Lets what the server sends through at `bytesPerSecond` (or at full speed without it): the rest waits on the
   * server's side, so that a cut during a slow answer leaves it unfinished, as a lost network does. The browser's own
   * throttling cannot do that: it paces bytes it has already received in full.
   */
  pace(bytesPerSecond?: number): void;
  close(): Promise<void>;
}

/**
 * A TCP relay in front of the e2e server. Playwright's offline emulation reaches a service worker only once it has
 * attached to it, so a worker woken by Background Sync can send before it is emulated offline; a cut relay fails
 * every connection, whoever opens it, as a lost network does.
 */
export async function unpluggableNetwork(serverPort: number): Promise<UnpluggableNetwork> {
  let plugged = true;
  let rate: number | undefined;
  /** A tenth of a second's worth of bytes every tenth of a second, while paced. */
  const paced = () =>
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (!rate) return done(null, chunk);
        let sent = 0;
        const next = () => {
          if (sent >= chunk.length) return done();
          const slice = chunk.subarray(sent, sent + Math.max(1, Math.round(rate! / 10)));
          sent += slice.length;
          this.push(slice);
          setTimeout(next, rate ? 100 : 0);
        };
        next();
      },
    });
  const open = new Set<net.Socket>();
  const relay = net.createServer((incoming) => {
    if (!plugged) {
      incoming.destroy();
      return;
    }
    const outgoing = net.connect(serverPort, '127.0.0.1');
    for (const socket of [incoming, outgoing]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {
        incoming.destroy();
        outgoing.destroy();
      });
    }
    incoming.pipe(outgoing).pipe(paced()).pipe(incoming);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as net.AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    unplug() {
      plugged = false;
      for (const socket of open) socket.destroy();
    },
    plugIn() {
      plugged = true;
    },
    pace(bytesPerSecond) {
      rate = bytesPerSecond;
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => relay.close(() => resolve()));
    },
  };
}
