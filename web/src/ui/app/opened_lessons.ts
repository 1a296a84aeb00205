// Lessons a teacher opened from a file (or a link that carries one), by name: they come
// before the shipped ones, so an edited copy of a shipped lesson is the one played. Apart
// from the player (lesson_player.ts, loaded when a lesson is first opened) so that the
// picker and the URL can ask about them without it.
import type { Lesson } from '../../core/lessons/types.ts';

const opened = new Map<string, Lesson>();

export function rememberOpened(lesson: Lesson): void {
  opened.set(lesson.name, lesson);
}

/** The lesson of that name opened from a file, if it was. */
export function openedLesson(name: string): Lesson | undefined {
  return opened.get(name);
}

/** The lesson's JSON for a link, when it is not a shipped one (a link must carry it). */
export function openedLessonText(name: string): string | undefined {
  const l = opened.get(name);
  return l ? JSON.stringify(l) : undefined;
}
