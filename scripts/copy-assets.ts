// tsc compiles TypeScript only: the dashboard's HTML, CSS and JS are copied beside their compiled
// module, where apps/api/src/dashboard/dashboard.ts looks for them.
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const ASSETS = ['apps/api/src/dashboard/public'];

for (const dir of ASSETS) {
  const target = join(ROOT, 'dist', dir);
  rmSync(target, { recursive: true, force: true });
  cpSync(join(ROOT, dir), target, { recursive: true });
}
