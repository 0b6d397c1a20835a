// The spec files (`*.spec.ts`) under the given folders of the repository, as paths from its root,
// sorted: what scripts/testQuick.mjs and scripts/postgresSpecs.mjs choose from.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoDir = fileURLToPath(new URL('..', import.meta.url));

export function specsUnder(...folders) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(repoDir, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.spec.ts')) found.push(path);
    }
  };
  folders.forEach(walk);
  return found.sort();
}
