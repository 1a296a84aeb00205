// One problem found in a scenario, named the way docs/scenario-format.md names fields:
// `links[0].baud`, `hosts[1].stack.tcp_rto_min_ms`; "" is the document itself.

export interface ScenarioError {
  path: string;
  message: string;
  /** Where in the file, when the error came from a file's text (parseScenario). */
  line?: number;
  column?: number;
}

export type PathSegment = string | number;

/** ['links', 0, 'baud'] -> "links[0].baud" */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out === '' ? s : `.${s}`;
  }
  return out;
}

/** An Ajv instancePath (a JSON pointer, RFC 6901) as a path: "/links/0/baud" -> "links[0].baud". */
export function pointerToPath(pointer: string): string {
  if (pointer === '') return '';
  const segments = pointer
    .slice(1)
    .split('/')
    .map((raw): PathSegment => {
      const s = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      // Array indices are the only all-digit segments: every field name starts with a letter.
      return /^(0|[1-9][0-9]*)$/.test(s) ? Number(s) : s;
    });
  return formatPath(segments);
}

/** Appends a field to a path: ("links[0]", "baud") -> "links[0].baud". */
export function childPath(path: string, field: string): string {
  return path === '' ? field : `${path}.${field}`;
}

/**
 * One line per error, for the command line, as the engine words it after the file's name:
 * "scenario.json: line 12, column 17: links[0].baud: must be an integer between 50 and 4000000".
 */
export function formatErrors(errors: readonly ScenarioError[], source = 'scenario'): string {
  return errors
    .map((e) => {
      const where = e.line === undefined ? '' : `line ${e.line}, column ${e.column}: `;
      return e.path === '' ? `${source}: ${where}${e.message}` : `${source}: ${where}${e.path}: ${e.message}`;
    })
    .join('\n');
}
