import {
  isAlias,
  isMap,
  isNode,
  isScalar,
  isSeq,
  parseDocument,
  visit,
  type Alias,
  type Document,
  type Node,
  type YAMLError,
} from 'yaml';
import { locate, mapNode, type ConfigNode, type MapEntry, type SourceText } from './configNode';
import type { ConfigurationError, ConfigurationErrorCode } from './errorCodes';
import { readCommonYaml } from './readCommonYaml';
import { utf8Length } from './utf8Length';
import { YAML_LIMITS } from './yamlLimits';

export { YAML_LIMITS } from './yamlLimits';

export type YamlReading =
  { ok: true; root: ConfigNode | null; source: SourceText } | { ok: false; errors: ConfigurationError[] };

export interface YamlSourceName {
  name: string;
  isArchiveEntry: boolean;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** UTF-8 with or without a byte-order mark (the decoder drops it). Anything else is refused with its position. */
export function decodeUtf8(
  bytes: Uint8Array,
  name: YamlSourceName,
): { ok: true; text: string } | { ok: false; error: ConfigurationError } {
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    const firstBad = firstInvalidUtf8Offset(bytes);
    const before = new TextDecoder('utf-8').decode(bytes.subarray(0, firstBad));
    const lines = before.split('\n');
    return {
      ok: false,
      error: {
        code: 'INVALID_CONFIGURATION_FILE',
        path: '',
        params: { reason: 'notUtf8', byteOffset: firstBad },
        line: lines.length,
        column: lines[lines.length - 1].length + 1,
        ...(name.isArchiveEntry ? { file: name.name } : {}),
      },
    };
  }
}

/** Offset of the first byte that does not start a well-formed UTF-8 sequence (for the error position only). */
function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index];
    const continuation =
      lead < 0x80
        ? 0
        : lead >= 0xc2 && lead <= 0xdf
          ? 1
          : lead >= 0xe0 && lead <= 0xef
            ? 2
            : lead >= 0xf0 && lead <= 0xf4
              ? 3
              : -1;
    if (continuation < 0) return index;
    for (let next = 1; next <= continuation; next += 1) {
      if (index + next >= bytes.length || (bytes[index + next] & 0xc0) !== 0x80) return index;
    }
    index += continuation + 1;
  }
  return bytes.length;
}

/**
 * Parses one YAML text with the YAML 1.2 core schema and returns the document as a {@link ConfigNode} tree: through
 * the one-pass reader of common YAML when it can, else through the `yaml` package.
 */
export function readYamlText(text: string, name: YamlSourceName): YamlReading {
  const source = sourceText(text, name);
  // Bytes, as the limit says: a character may take up to four.
  if (text.length > YAML_LIMITS.maxBytes || utf8Length(text) > YAML_LIMITS.maxBytes) {
    return {
      ok: false,
      errors: [
        {
          code: 'INVALID_CONFIGURATION_FILE',
          path: '',
          params: { reason: 'tooLarge', maxBytes: YAML_LIMITS.maxBytes },
          ...locate(source, 0),
        },
      ],
    };
  }
  const common = readCommonYaml(text, source);
  if (common) return { ok: true, root: common.root, source };
  return readFullYaml(text, source);
}

/** Lines and columns counted from 1, the line table built at the first error only. */
export function sourceText(text: string, name: YamlSourceName): SourceText {
  let lineStarts: number[] | undefined;
  return {
    name: name.name,
    isArchiveEntry: name.isArchiveEntry,
    linePosition: (offset) => {
      lineStarts ??= lineStartsOf(text);
      let low = 0;
      let high = lineStarts.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (offset < lineStarts[middle]) high = middle;
        else low = middle + 1;
      }
      return { line: low, column: offset - lineStarts[low - 1] + 1 };
    },
  };
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', newline + 1))
    starts.push(newline + 1);
  return starts;
}

/** The whole YAML language through the `yaml` package, with its errors mapped to the format's codes. */
export function readFullYaml(text: string, source: SourceText): YamlReading {
  const fail = (code: ConfigurationErrorCode, offset: number, params: Record<string, unknown>): YamlReading => ({
    ok: false,
    errors: [{ code, path: '', params, ...locate(source, offset) }],
  });

  let document: Document.Parsed;
  try {
    document = parseDocument(text, {
      schema: 'core',
      version: '1.2',
      uniqueKeys: true,
      merge: false,
      prettyErrors: false,
    });
  } catch (thrown) {
    return fail('UNKNOWN', 0, { message: thrown instanceof Error ? thrown.message : String(thrown) });
  }

  const problems = [
    ...document.errors,
    ...document.warnings.filter((warning) => warning.code === 'TAG_RESOLVE_FAILED'),
  ];
  if (problems.length > 0) {
    return {
      ok: false,
      errors: problems.map((problem) => ({
        // The parser runs out of stack on nesting deeper than the format's limit, before the reader could count it.
        ...(problem.code === 'RESOURCE_EXHAUSTION' && /call stack/i.test(problem.message)
          ? {
              code: 'INVALID_CONFIGURATION_FILE' as const,
              params: { reason: 'tooDeep', maxDepth: YAML_LIMITS.maxDepth },
            }
          : { code: yamlErrorCode(problem, text), params: yamlErrorParams(problem) }),
        path: '',
        ...locate(source, problem.pos[0]),
      })),
    };
  }
  if (document.contents === null) return { ok: true, root: null, source };

  const converter = new NodeConverter(document, source);
  const root = converter.convert(document.contents, 0);
  if (converter.failure) return { ok: false, errors: [converter.failure] };
  return { ok: true, root, source };
}

/**
 * The parser's code as the kind of the error, never its English sentence, so that both languages can say it; a
 * wrong number also names the tag it failed (`int` or `float`).
 */
function yamlErrorParams(error: YAMLError): Record<string, unknown> {
  const tag = error.code === 'TAG_RESOLVE_FAILED' ? /:(int|float)$/.exec(error.message.split('\n')[0].trim()) : null;
  return tag ? { kind: error.code, tag: tag[1] } : { kind: error.code };
}

/** Groups the parser's many error kinds into the original's low-level codes (§1.1). */
function yamlErrorCode(error: YAMLError, text: string): ConfigurationErrorCode {
  switch (error.code) {
    case 'DUPLICATE_KEY':
      return 'DUPLICATE_KEY';
    case 'BAD_SCALAR_START':
    case 'TAB_AS_INDENT':
    case 'BAD_DQ_ESCAPE':
      return 'UNEXPECTED_CHARACTER';
    case 'TAG_RESOLVE_FAILED':
      return /:(int|float)$/.test(error.message.split('\n')[0].trim()) ? 'MALFORMED_NUMBER' : 'INVALID_TOKEN';
    case 'IMPOSSIBLE':
      return 'UNKNOWN';
    case 'MISSING_CHAR':
      if (error.message.startsWith('Missing closing')) return 'UNTERMINATED_STRING';
      if (error.message.startsWith('Comments must be separated')) return 'MALFORMED_COMMENT';
      break;
  }
  return text.slice(error.pos[0]).trim().length === 0 ? 'UNEXPECTED_EOF' : 'INVALID_TOKEN';
}

const INTEGER_SOURCE = /^[-+]?[0-9]+$|^0o[0-7]+$|^0x[0-9a-fA-F]+$/;

class NodeConverter {
  failure: ConfigurationError | undefined;
  private nodes = 0;
  private aliases = 0;
  /** What each alias points to, found once: the parser's own lookup walks the whole document for every alias. */
  private readonly targets = new Map<Alias, Node>();

  constructor(
    document: Document.Parsed,
    private readonly source: SourceText,
  ) {
    // An alias names the closest anchor before it: anchors may be redefined further down.
    const anchors = new Map<string, Node>();
    visit(document, {
      Node: (_key, node) => {
        if (isAlias(node)) {
          const target = anchors.get(node.source);
          if (target) this.targets.set(node, target);
        } else if (isNode(node) && node.anchor) anchors.set(node.anchor, node);
      },
    });
  }

  convert(node: Node | null, depth: number): ConfigNode {
    const offset = node?.range?.[0] ?? 0;
    if (this.failure) return this.nullAt(offset);
    if (++this.nodes > YAML_LIMITS.maxNodes)
      return this.stop('INVALID_CONFIGURATION_FILE', offset, {
        reason: 'tooManyNodes',
        maxNodes: YAML_LIMITS.maxNodes,
      });
    if (depth > YAML_LIMITS.maxDepth)
      return this.stop('INVALID_CONFIGURATION_FILE', offset, { reason: 'tooDeep', maxDepth: YAML_LIMITS.maxDepth });
    if (node === null) return this.nullAt(offset);

    if (isAlias(node)) {
      if (++this.aliases > YAML_LIMITS.maxAliases)
        return this.stop('INVALID_CONFIGURATION_FILE', offset, {
          reason: 'tooManyAliases',
          maxAliases: YAML_LIMITS.maxAliases,
        });
      const target = this.targets.get(node);
      if (!target) return this.stop('INVALID_TOKEN', offset, { kind: 'BAD_ALIAS', alias: node.source });
      return this.convert(target, depth + 1);
    }
    if (isScalar(node)) return this.scalar(node.value, node.type === 'PLAIN' ? node.source : undefined, offset);
    if (isSeq(node))
      return {
        kind: 'list',
        source: this.source,
        offset,
        items: node.items.map((item) => this.convert(item as Node | null, depth + 1)),
      };
    if (isMap(node)) {
      const entries: MapEntry[] = [];
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        const keyOffset = key?.range?.[0] ?? offset;
        const keyText = this.keyText(key, keyOffset);
        const value = pair.value as Node | null;
        entries.push({
          key: keyText,
          keyOffset,
          value: value === null ? this.nullAt(keyOffset) : this.convert(value, depth + 1),
        });
      }
      return mapNode(this.source, offset, entries);
    }
    return this.stop('UNKNOWN', offset, { message: 'Unsupported YAML node' });
  }

  /** Keys are read as the text the author wrote: `no`, `1.0` or `true` stay strings, as they do in the original. */
  private keyText(key: Node | null, offset: number): string {
    if (key === null) return '';
    const resolved = isAlias(key) ? this.targets.get(key) : key;
    if (resolved && isScalar(resolved)) {
      if (typeof resolved.value === 'string') return resolved.value;
      return resolved.type === 'PLAIN' && resolved.source !== undefined
        ? resolved.source
        : String(resolved.value ?? '');
    }
    this.stop('INVALID_TOKEN', offset, { kind: 'NON_STRING_KEY' });
    return '';
  }

  private scalar(value: unknown, plainSource: string | undefined, offset: number): ConfigNode {
    const source = this.source;
    if (value === null || value === undefined) return this.nullAt(offset);
    if (typeof value === 'boolean')
      return { kind: 'scalar', source, offset, type: 'boolean', value, text: plainSource ?? String(value) };
    if (typeof value === 'number') {
      const text = plainSource ?? String(value);
      return { kind: 'scalar', source, offset, type: INTEGER_SOURCE.test(text) ? 'integer' : 'float', value, text };
    }
    const text = typeof value === 'string' ? value : String(value);
    return { kind: 'scalar', source, offset, type: 'string', value: text, text };
  }

  private nullAt(offset: number): ConfigNode {
    return { kind: 'scalar', source: this.source, offset, type: 'null', value: null, text: '' };
  }

  private stop(code: ConfigurationErrorCode, offset: number, params: Record<string, unknown>): ConfigNode {
    this.failure ??= { code, path: '', params, ...locate(this.source, offset) };
    return this.nullAt(offset);
  }
}
