/**
 * The network between the outbox (running in Node over fake-indexeddb) and a real test server, with the
 * failures a tablet meets in the field. It is the `fetch` injected into `createOutbox`; every request really
 * goes over HTTP to the server unless a fault stops it first.
 *
 * Faults are queued by the test and each one applies to the next request that leaves while online:
 * - `drop-request`: the request never reaches the server (network error);
 * - `drop-response`: the server handles the request and answers in full, the answer is lost (network error);
 * - `drop-mid-stream`: the connection breaks once the first bytes of the answer arrived (network error);
 * - `503-before`: a gateway answers 503 without passing the request on;
 * - `503-after`: the server handles the request, the gateway answers 503 instead of its answer;
 * - `crash-before`, `crash-after`, `crash-mid-stream`: the tab dies at that point — the fetch never settles, so
 *   the outbox item stays `sending`, and `crashed` resolves for the test to "reload".
 */
export type DropFault = 'drop-request' | 'drop-response' | 'drop-mid-stream' | '503-before' | '503-after';
export type CrashFault = 'crash-before' | 'crash-after' | 'crash-mid-stream';
export type Fault = DropFault | CrashFault;

export interface NetworkCounters {
  /** Requests the outbox tried to send. */
  attempts: number;
  /** Requests refused by the device being offline. */
  offline: number;
  /** Requests that reached the server. */
  reachedServer: number;
  /** Answers the server marked `idempotent-replayed: true`. */
  replayed: number;
  /** Answers 409 IDEMPOTENCY_KEY_IN_PROGRESS. */
  inProgress: number;
  /** Time spent waiting for the server (request sent to answer read). */
  serverMs: number;
  faults: Record<Fault, number>;
}

export class FlakyNetwork {
  online = true;
  private readonly faults: Fault[] = [];
  private crashListener: (() => void) | undefined;
  readonly counters: NetworkCounters = {
    attempts: 0,
    offline: 0,
    reachedServer: 0,
    replayed: 0,
    inProgress: 0,
    serverMs: 0,
    faults: {
      'drop-request': 0,
      'drop-response': 0,
      'drop-mid-stream': 0,
      '503-before': 0,
      '503-after': 0,
      'crash-before': 0,
      'crash-after': 0,
      'crash-mid-stream': 0,
    },
  };

  /** @param headers sent with every request that reaches the server (the session, as a browser's cookie would be). */
  constructor(private readonly headers: Record<string, string>) {}

  inject(...faults: Fault[]) {
    this.faults.push(...faults);
  }

  /** Forgets the faults that no request used (a crash planned for a pass that sent nothing must not linger). */
  clearFaults() {
    this.faults.length = 0;
  }

  /** Resolves when a request meets a crash fault (the next one only). */
  crashed(): Promise<void> {
    return new Promise((resolve) => {
      this.crashListener = resolve;
    });
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    this.counters.attempts += 1;
    if (!this.online) {
      this.counters.offline += 1;
      throw new TypeError('Failed to fetch (offline)');
    }
    const fault = this.faults.shift();
    if (fault) this.counters.faults[fault] += 1;
    switch (fault) {
      case 'drop-request':
        throw new TypeError('Failed to fetch (request lost)');
      case '503-before':
        return gatewayError();
      case 'crash-before':
        return this.crash();
      default:
        break;
    }
    const abort = new AbortController();
    const sentAt = performance.now();
    try {
      return await this.forward(input, init, fault, abort);
    } finally {
      this.counters.serverMs += performance.now() - sentAt;
    }
  };

  private async forward(
    input: RequestInfo | URL,
    init: RequestInit,
    fault: Fault | undefined,
    abort: AbortController,
  ): Promise<Response> {
    const response = await fetch(input, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...this.headers },
      signal: abort.signal,
    });
    this.counters.reachedServer += 1;
    if (fault === 'drop-mid-stream' || fault === 'crash-mid-stream') {
      const reader = response.body!.getReader();
      await reader.read();
      abort.abort();
      await reader.cancel().catch(() => undefined);
      if (fault === 'crash-mid-stream') return this.crash();
      throw new TypeError('Failed to fetch (connection reset)');
    }
    const body = new Uint8Array(await response.arrayBuffer());
    if (response.headers.get('idempotent-replayed') === 'true') this.counters.replayed += 1;
    if (response.status === 409 && new TextDecoder().decode(body).includes('IDEMPOTENCY_KEY_IN_PROGRESS'))
      this.counters.inProgress += 1;
    switch (fault) {
      case 'drop-response':
        throw new TypeError('Failed to fetch (answer lost)');
      case '503-after':
        return gatewayError();
      case 'crash-after':
        return this.crash();
      default:
        return new Response(body, { status: response.status, headers: response.headers });
    }
  }

  private crash(): Promise<Response> {
    const listener = this.crashListener;
    this.crashListener = undefined;
    listener?.();
    return new Promise<Response>(() => undefined);
  }
}

function gatewayError() {
  return new Response(JSON.stringify({ code: 'BAD_GATEWAY', message: 'BAD_GATEWAY', params: {} }), {
    status: 503,
    headers: { 'Content-Type': 'application/json' },
  });
}
