import net from 'node:net';

/** A way to the server that a test can cut for everything in the browser, its service worker included. */
export interface UnpluggableNetwork {
  /** The origin to browse instead of the server's own. */
  origin: string;
  unplug(): void;
  plugIn(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay in front of the e2e server. Playwright's offline emulation reaches a service worker only once it has
 * attached to it, so a worker woken by Background Sync can send before it is emulated offline; a cut relay fails
 * every connection, whoever opens it, as a lost network does.
 */
export async function unpluggableNetwork(serverPort: number): Promise<UnpluggableNetwork> {
  let plugged = true;
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
    incoming.pipe(outgoing).pipe(incoming);
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
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => relay.close(() => resolve()));
    },
  };
}
