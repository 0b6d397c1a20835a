/**
 * The import graph of the project's own modules, walked from entry files: every relative `import`,
 * `export … from` and `import()` (type-only imports included: a circle of types is a circle of
 * modules all the same). `cyclesOf` answers each circle once, as the list of files around it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const SPECIFIER =
  /(?:^|[\s;}])(?:import|export)\s+(?:type\s+)?(?:[\w*${},\s]+?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

/** Strips comments so an example in a comment is not taken for an import. */
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

function resolveFrom(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(file), specifier);
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  // `./x.js` written for `./x.ts`.
  const ts = base.replace(/\.js$/, '.ts');
  return existsSync(ts) ? ts : null;
}

export function importGraph(entries: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = entries.map((entry) => resolve(entry));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (graph.has(file) || !/\.tsx?$/.test(file)) continue;
    const source = withoutComments(readFileSync(file, 'utf8'));
    const targets = new Set<string>();
    for (const match of source.matchAll(SPECIFIER)) {
      const target = resolveFrom(file, match[1] ?? match[2]!);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets]);
    pending.push(...targets);
  }
  return graph;
}

/** The circles of the graph (strongly connected components of more than one module, or a self-import). */
export function cyclesOf(graph: Map<string, string[]>, root = process.cwd()): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (start: string) => {
    // Iterative Tarjan: deep import chains must not overflow the call stack.
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    indexOf.set(start, index);
    low.set(start, index);
    index++;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!indexOf.has(target)) {
          indexOf.set(target, index);
          low.set(target, index);
          index++;
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, indexOf.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === indexOf.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || targets.includes(frame.node))
          components.push(component.map((file) => relative(root, file)).sort());
      }
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return components;
}
