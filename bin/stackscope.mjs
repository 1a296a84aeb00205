#!/usr/bin/env node
// `npx stackscope`: the command line over the wasm engine (see bin/cli.ts). The sources are
// TypeScript, shared with the page; tsx compiles them as they load.
import { register } from 'tsx/esm/api';

// A reader that stops early (`stackscope list | head -1`) closes the pipe: the rest of the
// output has nowhere to go, which is no reason to stop writing the files asked for.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
});
register();
const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv.slice(2));
