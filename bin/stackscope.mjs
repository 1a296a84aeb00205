#!/usr/bin/env node
// `npx stackscope`: the command line over the wasm engine (see bin/cli.ts). The sources are
// TypeScript, shared with the page; tsx compiles them as they load.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv.slice(2));
