/**
 * Subscriptions indexed by their subject tokens (a tree with `*` and `>` branches, as NATS keeps its
 * interest graph), so routing a message costs the depth of its subject rather than one pattern match
 * per subscription: a device host with thousands of device workers subscribes thousands of subjects.
 */
interface Node<T> {
  children: Map<string, Node<T>>;
  /** Entries whose pattern ends at this node. */
  here: Set<Entry<T>>;
  /** Entries whose pattern ends with `>` below this node. */
  rest: Set<Entry<T>>;
}

interface Entry<T> {
  /** Insertion order, so matches come back in the order they subscribed (round robin is stable). */
  order: number;
  value: T;
}

const node = <T>(): Node<T> => ({ children: new Map(), here: new Set(), rest: new Set() });

export class SubjectIndex<T> {
  private readonly root: Node<T> = node();
  private readonly entries = new Map<T, { entry: Entry<T>; tokens: string[] }>();
  private next = 0;

  get size(): number {
    return this.entries.size;
  }

  /** Adds `value` under `pattern` (a valid subscription subject); a value is held once. */
  add(pattern: string, value: T): void {
    if (this.entries.has(value)) throw new Error('The value is indexed already');
    const tokens = pattern.split('.');
    const entry: Entry<T> = { order: this.next++, value };
    let at = this.root;
    for (const token of tokens) {
      if (token === '>') {
        at.rest.add(entry);
        this.entries.set(value, { entry, tokens });
        return;
      }
      let child = at.children.get(token);
      if (!child) {
        child = node();
        at.children.set(token, child);
      }
      at = child;
    }
    at.here.add(entry);
    this.entries.set(value, { entry, tokens });
  }

  /** Removes `value`; branches left empty are pruned. */
  delete(value: T): void {
    const held = this.entries.get(value);
    if (!held) return;
    this.entries.delete(value);
    const path: Node<T>[] = [this.root];
    let at = this.root;
    for (const token of held.tokens) {
      if (token === '>') break;
      const child = at.children.get(token);
      if (!child) return;
      path.push(child);
      at = child;
    }
    const last = held.tokens[held.tokens.length - 1] === '>';
    (last ? at.rest : at.here).delete(held.entry);
    // Prune from the leaf up while nodes hold nothing.
    for (let i = path.length - 1; i > 0; i--) {
      const n = path[i]!;
      if (n.children.size > 0 || n.here.size > 0 || n.rest.size > 0) break;
      path[i - 1]!.children.delete(held.tokens[i - 1]!);
    }
  }

  /** The values whose patterns match `subject` (no wildcards), in the order they were added. */
  match(subject: string): T[] {
    const tokens = subject.split('.');
    const found: Entry<T>[] = [];
    const walk = (at: Node<T>, i: number): void => {
      // `>` matches one or more remaining tokens.
      if (i < tokens.length) for (const e of at.rest) found.push(e);
      if (i === tokens.length) {
        for (const e of at.here) found.push(e);
        return;
      }
      const exact = at.children.get(tokens[i]!);
      if (exact) walk(exact, i + 1);
      const any = at.children.get('*');
      if (any) walk(any, i + 1);
    };
    walk(this.root, 0);
    if (found.length > 1) found.sort((a, b) => a.order - b.order);
    return found.map((e) => e.value);
  }

  /** Whether any pattern matches `subject`. */
  matches(subject: string): boolean {
    return this.match(subject).length > 0;
  }
}
