// A small argument reader: flags with values, repeated flags, positional arguments.

export class UsageError extends Error {}

export interface ParsedArgs {
  positional: string[];
  values: Map<string, string[]>;
  flags: Set<string>;
}

/** `withValue` flags take the next argument; `bare` flags take none; anything else is an error. */
export function parseArgs(argv: string[], withValue: string[], bare: string[]): ParsedArgs {
  const out: ParsedArgs = { positional: [], values: new Map(), flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      out.positional.push(a);
    } else if (withValue.includes(a)) {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      out.values.set(a, [...(out.values.get(a) ?? []), v]);
    } else if (bare.includes(a)) {
      out.flags.add(a);
    } else {
      throw new UsageError(`unknown option ${a}`);
    }
  }
  return out;
}

export function single(p: ParsedArgs, flag: string): string | undefined {
  const v = p.values.get(flag);
  if (v && v.length > 1) throw new UsageError(`${flag} given more than once`);
  return v?.[0];
}
