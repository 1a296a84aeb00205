// A small argument reader: each command says which options take a value, which take none,
// which may repeat, and how many positional arguments it takes; anything else is refused
// before the command does any work, in one line naming the argument.

export class UsageError extends Error {}

/** `-h` or `--help`: the command's usage is printed, exit status 0. */
export class HelpRequest extends Error {
  constructor(readonly usage: string) {
    super('help');
  }
}

export interface CommandSpec {
  /** The command's name as typed ("run"). */
  name: string;
  /** Its usage lines, as `stackscope COMMAND --help` prints them. */
  usage: string;
  /** Options that take the next argument as their value. */
  withValue: string[];
  /** Options that take no value. */
  bare: string[];
  /** Options that may be given more than once (each value kept); any other only once. */
  repeatable?: string[];
  /** Positional arguments taken: [at least, at most] and what they are, for the message. */
  positional: { min: number; max: number; what: string };
}

export interface ParsedArgs {
  positional: string[];
  values: Map<string, string[]>;
  flags: Set<string>;
}

/** An option as typed: `--x` or `-x`; a lone "-" is an argument, and "--" ends the options. */
function isOption(a: string): boolean {
  return a.length > 1 && a.startsWith('-');
}

export function parseArgs(argv: string[], spec: CommandSpec): ParsedArgs {
  // Help wins over any other fault of the line, as with most commands.
  const end = argv.indexOf('--');
  if ((end < 0 ? argv : argv.slice(0, end)).some((a) => a === '-h' || a === '--help')) throw new HelpRequest(spec.usage);
  const out: ParsedArgs = { positional: [], values: new Map(), flags: new Set() };
  let options = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!options || !isOption(arg)) {
      out.positional.push(arg);
      continue;
    }
    if (arg === '--') {
      options = false;
      continue;
    }
    // "--seed=3" is "--seed 3".
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (spec.withValue.includes(name)) {
      const v = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      // "--pcap --table": the value was forgotten, not a file named "--table".
      if (v === undefined || (eq < 0 && v.startsWith('--'))) throw new UsageError(`${spec.name}: ${name} needs a value`);
      const had = out.values.get(name) ?? [];
      if (had.length > 0 && !spec.repeatable?.includes(name)) throw new UsageError(`${spec.name}: ${name} given more than once`);
      out.values.set(name, [...had, v]);
    } else if (spec.bare.includes(name)) {
      if (eq > 0) throw new UsageError(`${spec.name}: ${name} takes no value`);
      if (out.flags.has(name)) throw new UsageError(`${spec.name}: ${name} given more than once`);
      out.flags.add(name);
    } else {
      throw new UsageError(`${spec.name}: unknown option ${name}`);
    }
  }
  const { min, max, what } = spec.positional;
  if (out.positional.length > max) {
    const extra = out.positional.slice(max);
    const label = extra.length > 1 ? 'extra arguments' : 'an extra argument';
    throw new UsageError(`${spec.name} takes ${max === 0 ? 'no arguments' : what}; ${label}: ${extra.map((x) => `"${x}"`).join(' ')}`);
  }
  if (out.positional.length < min) throw new UsageError(`${spec.name} needs ${what}`);
  return out;
}

/** The value of an option given at most once (parseArgs refused a repeat). */
export function single(p: ParsedArgs, flag: string): string | undefined {
  return p.values.get(flag)?.[0];
}
