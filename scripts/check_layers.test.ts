// scripts/check-layers.ts finds what it is there to find: a core module importing a view, two
// folders importing each other, production code importing a test-only module; and the tree
// as it is has none of them.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkLayers } from './check-layers.ts';

const check = (files: Record<string, string>) => checkLayers(Object.keys(files), (f) => files[f]!).map((v) => `${v.file}:${v.line}: ${v.message}`);

describe('check-layers', () => {
  it('a core module may not import the page', () => {
    const out = check({
      'web/src/core/run/a.ts': "// first line\nimport { b } from '../../ui/app/b.ts';\n",
      'web/src/ui/app/b.ts': 'export const b = 1;\n',
    });
    expect(out).toEqual(['web/src/core/run/a.ts:2: core may not import web/src/ui/app/b.ts (ui)']);
  });

  it('the CLI may use the core, not the page', () => {
    const out = check({
      'bin/x.ts': "import { a } from '../web/src/core/run/a.ts';\nimport { b } from '../web/src/ui/app/b.ts';\n",
      'web/src/core/run/a.ts': '',
      'web/src/ui/app/b.ts': '',
    });
    expect(out).toEqual(['bin/x.ts:2: cli may not import web/src/ui/app/b.ts (ui)']);
  });

  it('two folders importing each other are a cycle, named with an import of each way', () => {
    const out = check({
      'web/src/ui/app/a.ts': "import { b } from '../timeline/b.ts';\n",
      'web/src/ui/timeline/b.ts': "import { a } from '../app/a.ts';\n",
    });
    expect(out).toHaveLength(1);
    expect(out[0]).toContain('folders import each other round a cycle: web/src/ui/app, web/src/ui/timeline');
  });

  it('test-only modules serve tests', () => {
    const out = check({
      'web/src/core/run/a.ts': "import { t } from './testing/t.ts';\n",
      'web/src/core/run/a.test.ts': "import { t } from './testing/t.ts';\n",
      'web/src/core/run/testing/t.ts': '',
    });
    expect(out).toEqual(['web/src/core/run/a.ts:1: imports the test-only web/src/core/run/testing/t.ts']);
  });

  it('the tree passes', () => {
    const out = execFileSync('npx', ['tsx', 'scripts/check-layers.ts'], { encoding: 'utf8' });
    expect(out).toMatch(/layers: \d+ files, 0 violations/);
  });
});
