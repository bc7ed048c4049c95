/** A JSON-LD object of the page. */
export type JsonLdNode = Record<string, unknown>;

/** JSON-LD blocks read: a page's own are a few KiB; past these bounds the rest is not read. */
const MAX_BLOCKS = 20;
const MAX_BLOCK_CHARS = 256 * 1024;
const MAX_NODES = 500;

/**
 * The objects of the page's JSON-LD (arrays, @graph and mainEntity unrolled), breadth first,
 * bounded: the page controls their number and size. Read before the cleanup removes scripts.
 */
export function jsonLdNodes(document: Document): JsonLdNode[] {
  const nodes: JsonLdNode[] = [];
  const scripts = [...document.querySelectorAll('script[type="application/ld+json" i]')];
  for (const script of scripts.slice(0, MAX_BLOCKS)) {
    const source = script.textContent ?? '';
    if (source.length > MAX_BLOCK_CHARS) continue;
    let queue: unknown[];
    try {
      queue = [JSON.parse(source)];
    } catch {
      continue; // a broken block is the page's mistake, not a failure of the page
    }
    // An index, not shift(): a block may hold a list of thousands.
    for (let at = 0; at < queue.length && nodes.length < MAX_NODES; at++) {
      const item = queue[at];
      if (Array.isArray(item)) queue.push(...(item as unknown[]).slice(0, MAX_NODES));
      else if (item && typeof item === 'object') {
        const node = item as JsonLdNode;
        nodes.push(node);
        for (const inner of [node['@graph'], node.mainEntity])
          if (inner && typeof inner === 'object') queue.push(inner);
      }
    }
  }
  return nodes;
}

/** A node's @type names. */
export const typesOf = (node: JsonLdNode): string[] =>
  [node['@type']].flat().filter((t): t is string => typeof t === 'string');
