import t from 'tap';
import { cyclesOf, importGraph } from './testing/importGraph.ts';

// A circle of imports makes the load order decide what a module sees, and ties layers that should
// depend one way (pages on the route table's types, routes on the app): none is allowed.
for (const [side, entries] of [
  ['server', ['server/main.ts', 'server/reproject.ts']],
  ['client', ['client/src/main.tsx']],
] as const) {
  t.test(`the ${side} has no import circle`, async (t) => {
    const graph = importGraph([...entries]);
    t.ok(graph.size > 50, `walked the ${side}'s modules (${graph.size})`);
    t.same(cyclesOf(graph), [], 'circles, each as the modules around it');
  });
}

t.test('the walker finds a circle, through a type-only or a lazy import too', async (t) => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'imports-'));
  writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport type A = B;\n");
  writeFileSync(
    join(dir, 'b.ts'),
    "export type B = number;\nexport const c = () => import('./c.tsx');\n",
  );
  writeFileSync(
    join(dir, 'c.tsx'),
    "// import { nothing } from './a.ts';\nexport { type A } from './a.ts';\n",
  );
  t.same(cyclesOf(importGraph([join(dir, 'a.ts')]), dir), [['a.ts', 'b.ts', 'c.tsx']]);
});
