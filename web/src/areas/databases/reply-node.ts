/**
 * A key-value reply as the console shows it. The gateway answers the reply as JSON and names the
 * kind of the top level (`type`: string, binary, integer, double, boolean, array, map, null);
 * nested values carry no name, so their kind is read from the JSON itself (a whole number is an
 * integer, `{"base64": …}` alone is a string that is not UTF-8).
 */
export type ReplyNode =
  | { kind: 'string'; text: string }
  | { kind: 'binary'; base64: string }
  | { kind: 'integer' | 'double'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'nil' }
  | { kind: 'list'; items: ReplyNode[] }
  | { kind: 'map'; entries: [string, ReplyNode][] };

function isBinary(value: object): value is { base64: string } {
  const keys = Object.keys(value);
  return (
    keys.length === 1 && keys[0] === 'base64' && typeof (value as { base64: unknown }).base64 === 'string'
  );
}

function mapNode(value: object): ReplyNode {
  return { kind: 'map', entries: Object.entries(value).map(([key, item]) => [key, replyNode(item)]) };
}

/** The reply `result` as a tree of nodes; `type` is the gateway's name for the top level. */
export function replyNode(result: unknown, type?: string): ReplyNode {
  if (result === null || result === undefined) return { kind: 'nil' };
  if (typeof result === 'boolean') return { kind: 'boolean', value: result };
  if (typeof result === 'number') {
    const kind =
      type === 'double' || (type === undefined && !Number.isInteger(result)) ? 'double' : 'integer';
    return { kind, value: result };
  }
  if (typeof result === 'string') return { kind: 'string', text: result };
  if (Array.isArray(result)) return { kind: 'list', items: result.map((item) => replyNode(item)) };
  if (typeof result === 'object') {
    if (type !== 'map' && isBinary(result)) return { kind: 'binary', base64: result.base64 };
    return mapNode(result);
  }
  return { kind: 'string', text: String(result) };
}

/** A one-line summary of a node, as redis-cli prints scalars: `(integer) 2`, `(nil)`, `"text"`. */
export function scalarText(node: ReplyNode): string {
  switch (node.kind) {
    case 'string':
      return node.text;
    case 'binary':
      return `(binary, base64) ${node.base64}`;
    case 'integer':
      return `(integer) ${node.value}`;
    case 'double':
      return `(double) ${node.value}`;
    case 'boolean':
      return node.value ? '(true)' : '(false)';
    case 'nil':
      return '(nil)';
    case 'list':
      return node.items.length === 0 ? '(empty list)' : `(list of ${node.items.length})`;
    case 'map':
      return node.entries.length === 0 ? '(empty hash)' : `(hash of ${node.entries.length})`;
  }
}
