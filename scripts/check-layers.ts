// The layering of the TypeScript, checked (npm test runs this): the shared core depends on
// no view, the page and the CLI sit on top of it, no two folders import each other round
// a cycle, and test-only modules (testing/ folders) serve tests only.
//
//   npx tsx scripts/check-layers.ts        prints each violation with its file and line
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each layer: where it lives and which layers it may import. Order is from the bottom. */
export const LAYERS = [
  { name: 'core', dir: 'web/src/core', may: ['core'] },
  { name: 'ui', dir: 'web/src/ui', may: ['core', 'ui'] },
  { name: 'cli', dir: 'bin', may: ['core', 'cli'] },
  { name: 'scripts', dir: 'scripts', may: ['core', 'scripts'] },
  { name: 'e2e', dir: 'e2e', may: ['core', 'e2e'] },
  { name: 'test', dir: 'test', may: ['core', 'test'] },
] as const;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface Violation {
  file: string;
  line: number;
  message: string;
}

interface Edge {
  from: string;
  to: string;
  line: number;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const rel = join(dir, name);
    if (statSync(join(ROOT, rel)).isDirectory()) {
      if (name !== 'node_modules' && name !== 'wasm') out.push(...sourceFiles(rel));
    } else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.mts')) out.push(rel);
  }
  return out;
}

const IMPORT = /(?:^|\s)(?:import|export)\b[^'";]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** The relative imports of a file, each with the line it is on. */
export function importsOf(file: string, text: string): Edge[] {
  const out: Edge[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2]!;
    const line = text.slice(0, m.index).split('\n').length + (m[0].startsWith('\n') ? 1 : 0);
    out.push({ from: file, to: normalize(join(dirname(file), spec)), line });
  }
  return out;
}

function layerOf(file: string): string | undefined {
  return LAYERS.find((l) => file === l.dir || file.startsWith(`${l.dir}/`))?.name;
}

/** The folder a file counts in for cycles: web/src/<layer>/<folder>, or its layer's dir. */
function folderOf(file: string): string {
  const parts = file.split('/');
  return parts[0] === 'web' && parts.length > 4 ? parts.slice(0, 4).join('/') : parts[0] === 'web' ? parts.slice(0, 3).join('/') : parts[0]!;
}

const isTest = (f: string) => /\.test\.tsx?$/.test(f) || f.startsWith('e2e/');
const isTesting = (f: string) => f.split('/').includes('testing');

/** Folder cycles: each strongly connected set of more than one folder (Tarjan). */
function folderCycles(edges: Edge[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    const a = folderOf(e.from);
    const b = folderOf(e.to);
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)!.add(b);
  }
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

export function checkLayers(files: string[], read: (f: string) => string): Violation[] {
  const edges = files.flatMap((f) => importsOf(f, read(f)));
  const out: Violation[] = [];
  for (const f of files) if (!layerOf(f)) out.push({ file: f, line: 1, message: 'is in no layer (scripts/check-layers.ts LAYERS)' });
  for (const e of edges) {
    const a = layerOf(e.from);
    const b = layerOf(e.to);
    const rule = LAYERS.find((l) => l.name === a);
    // the page bundles build outputs as assets (the firmware's hex): not code, no layer
    const asset = e.to.startsWith('build/') && /\?raw$/.test(e.to);
    if (a && rule && !asset && (!b || !(rule.may as readonly string[]).includes(b)))
      out.push({ file: e.from, line: e.line, message: `${a} may not import ${e.to} (${b ?? 'outside every layer'})` });
    if (isTesting(e.to) && !isTest(e.from) && !isTesting(e.from)) out.push({ file: e.from, line: e.line, message: `imports the test-only ${e.to}` });
  }
  for (const cycle of folderCycles(edges)) {
    const witness = edges.filter((e) => cycle.includes(folderOf(e.from)) && cycle.includes(folderOf(e.to)) && folderOf(e.from) !== folderOf(e.to));
    const first = witness[0]!;
    const pairs = new Map<string, Edge>();
    for (const w of witness) pairs.set(`${folderOf(w.from)} -> ${folderOf(w.to)}`, pairs.get(`${folderOf(w.from)} -> ${folderOf(w.to)}`) ?? w);
    const shown = [...pairs.entries()].map(([pair, w]) => `${pair} (${w.from}:${w.line})`);
    out.push({ file: first.from, line: first.line, message: `folders import each other round a cycle: ${cycle.join(', ')}; ${shown.join('; ')}` });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = LAYERS.flatMap((l) => sourceFiles(l.dir)).map((f) => relative('.', f));
  const violations = checkLayers(files, (f) => readFileSync(join(ROOT, f), 'utf8'));
  for (const v of violations) console.log(`${v.file}:${v.line}: ${v.message}`);
  console.log(`layers: ${files.length} files, ${violations.length} violation${violations.length === 1 ? '' : 's'}`);
  process.exit(violations.length === 0 ? 0 : 1);
}
