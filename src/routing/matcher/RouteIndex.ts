import type { IndexSegment } from '../RouteCompiler';

interface Node {
  readonly statics: Map<string, Node>;
  readonly dynamics: Array<{
    readonly key: string; readonly regex: RegExp; readonly node: Node; readonly anyNonEmpty: boolean;
  }>;
  /** Routes whose path ends at this node. */
  readonly terminals: number[];
  /** Routes the index cannot follow past this node: candidates whenever the walk reaches it. */
  readonly tails: number[];
}

function node(): Node {
  return { statics: new Map(), dynamics: [], terminals: [], tails: [] };
}

/**
 * A segment trie over the dynamic routes. Given a decoded path, it returns every route whose
 * regex could match it (a superset), in declaration order, without scanning the table: the cost
 * depends on the path's depth and on how many routes share its shape, not on the table's size.
 * The matcher still runs each candidate's own regex, which stays the authority.
 */
export class RouteIndex {
  private readonly root = node();
  private readonly buffer: number[] = [];

  /**
   * @param id - the route's position among the dynamic routes (declaration order)
   * @param segments - the route's index segments
   * @param tailFrom - index of the first segment the trie cannot follow, or -1
   */
  add(id: number, segments: readonly IndexSegment[], tailFrom: number): void {
    let current = this.root;
    const stop = tailFrom === -1 ? segments.length : tailFrom;
    for (let i = 0; i < stop; i++) {
      const s = segments[i];
      if (s.kind === 'static') {
        let next = current.statics.get(s.text);
        if (next === undefined) current.statics.set(s.text, (next = node()));
        current = next;
      } else {
        const key = `${s.regex.flags}:${s.source}`;
        let edge = current.dynamics.find((d) => d.key === key);
        // a lone default variable (`[^/]+`) matches any non-empty segment: no regex needed
        if (edge === undefined) {
          current.dynamics.push((edge = { key, regex: s.regex, node: node(), anyNonEmpty: s.source === '(?:[^/]+)' }));
        }
        current = edge.node;
      }
    }
    (tailFrom === -1 ? current.terminals : current.tails).push(id);
  }

  /**
   * The candidate routes for a decoded path, ascending, written into `out` (cleared first).
   * @param out - the array to fill; by default one array of the index's own, reused by the next
   *   call that does not pass one: read it before calling again
   */
  candidates(path: string, out: number[] = this.buffer): number[] {
    out.length = 0;
    // Trailing slashes are trimmed: route segments are stored without their trailing empty ones.
    let end = path.length;
    while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
    if (end === 0) {
      push(out, this.root.tails);
      push(out, this.root.terminals);
    } else {
      walk(this.root, path, 1, end, out);
    }
    if (out.length > 1) insertionSort(out);
    return out;
  }
}

function push(out: number[], ids: number[]): void {
  for (let i = 0; i < ids.length; i++) out.push(ids[i]);
}

function walk(n: Node, path: string, pos: number, end: number, out: number[]): void {
  if (n.tails.length > 0) push(out, n.tails);
  if (pos > end) {
    if (n.terminals.length > 0) push(out, n.terminals);
    return;
  }
  let slash = path.indexOf('/', pos);
  if (slash === -1 || slash > end) slash = end;
  const segment = path.slice(pos, slash);
  const next = n.statics.get(segment);
  if (next !== undefined) walk(next, path, slash + 1, end, out);
  const dynamics = n.dynamics;
  for (let i = 0; i < dynamics.length; i++) {
    const d = dynamics[i];
    if (d.anyNonEmpty ? segment.length > 0 : d.regex.test(segment)) walk(d.node, path, slash + 1, end, out);
  }
}

function insertionSort(a: number[]): void {
  for (let i = 1; i < a.length; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
    a[j + 1] = v;
  }
}
