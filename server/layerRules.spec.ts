// The layer rules `npm run lint` enforces (biome.json, noRestrictedImports per folder): a file in
// each layer importing the wrong way is refused, the same file importing the right way passes.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';

const root = fileURLToPath(new URL('..', import.meta.url));
const biome = join(root, 'node_modules', '.bin', 'biome');

type Case = { folder: string; from: string; refused: boolean };

const cases: Case[] = [
  { folder: 'domain/loads', from: '../../server/http/auth.ts', refused: true },
  { folder: 'domain/loads', from: '../../projections/users/users.queries.ts', refused: true },
  { folder: 'domain/loads', from: '../shared/errors.ts', refused: false },
  { folder: 'storage', from: '../projections/users/users.tables.ts', refused: true },
  { folder: 'storage', from: '../domain/catalog.ts', refused: false },
  { folder: 'projections/users', from: '../../server/http/auth.ts', refused: true },
  { folder: 'projections/users', from: '../../storage/eventStore.ts', refused: false },
  { folder: 'server/commands', from: '../http/auth.ts', refused: true },
  { folder: 'server/commands', from: '../routes/users.routes.ts', refused: true },
  { folder: 'server/commands', from: '../eventstore/commandHandler.ts', refused: false },
  { folder: 'server/routes', from: './users.routes.ts', refused: true },
  { folder: 'server/routes', from: '../http/table.ts', refused: false },
  { folder: 'server/http', from: '../routes/users.routes.ts', refused: false },
  { folder: 'client/src/api', from: '../../../server/http/auth.ts', refused: true },
  { folder: 'client/src/api', from: '../../../domain/catalog.ts', refused: false },
  { folder: 'client/src/components', from: '../pages/loads/LoadFormPage.tsx', refused: true },
  { folder: 'client/src/pages/loads', from: '../offers/OfferForm.tsx', refused: true },
  { folder: 'client/src/pages/loads', from: '../../components/FileDropZone.tsx', refused: false },
  { folder: 'client/src/pages/loads', from: './LoadFormPage.tsx', refused: false },
  { folder: 'client/src/pages/loads/probe', from: '../../offers/OfferForm.tsx', refused: true },
  { folder: 'client/src/pages/loads/probe', from: '../LoadFormPage.tsx', refused: false },
];

t.test(
  'an import against the layers fails the lint, and the same file importing the right way passes',
  async (t) => {
    const files = cases.map((c, i) => join(c.folder, `layerProbe${process.pid}x${i}.ts`));
    const made: string[] = [];
    t.teardown(() => {
      for (const file of made) rmSync(join(root, file), { force: true });
      rmSync(join(root, 'client/src/pages/loads/probe'), { recursive: true, force: true });
    });
    cases.forEach((c, i) => {
      mkdirSync(join(root, dirname(files[i])), { recursive: true });
      writeFileSync(
        join(root, files[i]),
        `import { x } from '${c.from}';\n\nexport const y = x;\n`,
      );
      made.push(files[i]);
    });
    const { stdout } = await promisify(execFile)(biome, ['lint', '--reporter=json', ...files], {
      cwd: root,
    }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const report = JSON.parse(stdout) as {
      diagnostics: { category: string; location?: { path?: string } }[];
    };
    const refused = new Set(
      report.diagnostics
        .filter((d) => d.category === 'lint/style/noRestrictedImports')
        .map((d) => d.location?.path),
    );
    cases.forEach((c, i) => {
      t.equal(
        refused.has(files[i]),
        c.refused,
        `${c.folder} importing ${c.from}: ${c.refused ? 'refused' : 'allowed'}`,
      );
    });
  },
);
