// How Node runs the server, wherever it is started (npm start and serve, the tests' processes, docs/deploy.md).
// A young generation of 1 MB per semi-space instead of V8's 16: rows streamed through an upload are short-lived and
// many, and every megabyte the young generation grows to stays resident (what it saves, at the same rate: "The
// server's young generation bounded" in docs/benchmarks.md). It must be on the command line: set from inside the
// process (v8.setFlagsFromString) it changed nothing, the heap being sized already.
export const SERVER_V8_FLAGS = ['--max-semi-space-size=1'];

/** The arguments of `node` that start the server: its V8 flags, `extra` (a test's own), tsx and the entry. */
export function serverNodeArgs(extra = []) {
  return [...SERVER_V8_FLAGS, ...extra, '--import', 'tsx', 'server/main.ts'];
}
