// "Open lesson…": a teacher's own lesson from a JSON file (docs/lessons.md). A file with
// problems gets them in the error banner, each with its field, line and column.
import { useRef } from 'react';
import { runNow, setState } from '../common/store.ts';

export function OpenLessonButton() {
  const input = useRef<HTMLInputElement>(null);
  const open = async (file: File) => {
    const { openLessonText } = await import('./lesson_player.ts'); // loaded when first used
    const problem = openLessonText(await file.text(), file.name);
    if (problem) setState({ error: problem });
    else void runNow();
  };
  return (
    <>
      <button type="button" onClick={() => input.current?.click()} title="Open a lesson written as a JSON file (docs/lessons.md)">
        Open lesson…
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        aria-label="Lesson file"
        hidden
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = ''; // the same file again is a new choice
          if (f) void open(f);
        }}
      />
    </>
  );
}
