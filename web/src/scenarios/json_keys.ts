// A member written twice in one object. JSON.parse keeps the last silently; the engine's
// reader (wasm/api/json.h) refuses the file. So that the page and the command refuse it
// too, with the field's path, parseScenario() scans the text for them here.

import { formatPath, type PathSegment, type ScenarioError } from './errors.ts';

interface Frame {
  /** the key or index of the value being read inside this container */
  at: PathSegment;
  keys: Set<string> | null; // null for an array
}

/** Duplicate keys in JSON text that JSON.parse() has already accepted. */
export function findDuplicateKeys(text: string): ScenarioError[] {
  const errors: ScenarioError[] = [];
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') stack.push({ at: c === '[' ? 0 : '', keys: c === '{' ? new Set() : null });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top && top.keys === null) top.at = (top.at as number) + 1;
    } else if (c === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      const top = stack[stack.length - 1];
      // A string followed by ':' is a key; anything else is a value.
      let j = i + 1;
      while (j < text.length && ' \t\r\n'.includes(text[j]!)) j++;
      if (top?.keys && text[j] === ':') {
        const key = JSON.parse(text.slice(start, i + 1)) as string;
        if (top.keys.has(key)) {
          const path = [...stack.slice(0, -1).map((f) => f.at), key];
          errors.push({ path: formatPath(path), message: 'is written twice in one object (JSON keeps only the last; write it once)' });
        }
        top.keys.add(key);
        top.at = key;
      }
    }
  }
  return errors;
}
