/**
 * Guards against files built to exhaust the reader ("billion laughs" aliases, huge or absurdly deep documents).
 * Real configurations are far below them: the largest corpus file is 45 kB with about 6,000 nodes.
 */
export const YAML_LIMITS = {
  /** Bytes of one YAML text in UTF-8 (its byte-order mark aside). */
  maxBytes: 5 * 1024 * 1024,
  /** Nodes after alias expansion: an alias is expanded each time it is used, so this bounds the expansion. */
  maxNodes: 500_000,
  maxAliases: 10_000,
  maxDepth: 200,
} as const;
