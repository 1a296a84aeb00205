/// <reference types="vite/client" />

/** vite.config.ts: each replay's name and title, and its file in core/scenarios/replays. */
declare module 'virtual:replay-index' {
  const index: readonly { name: string; title: string; file: string }[];
  export default index;
}

/** vite.config.ts: each shipped lesson's name and title, and its file in core/lessons/shipped. */
declare module 'virtual:lesson-index' {
  const index: readonly { name: string; title: string; file: string }[];
  export default index;
}
