// The lesson format (docs/lessons.md, lesson.schema.json) as TypeScript sees a valid file.

export interface EventQuery {
  /** a stack event kind as the world's trace_kinds name it: "tcp.rto.expire" */
  kind: string;
  host?: string;
  /** tcp.retransmit: the cause's text ("RTO expired", "fast retransmit" ...) */
  cause?: string;
  /** tcp.state: the state entered ("TIME_WAIT") */
  state?: string;
  nth?: number;
  after?: string;
}

export interface FrameQuery {
  link?: string;
  from?: string;
  tcp_flags?: string;
  payload?: boolean;
  /** a Wireshark analysis flag without its "tcp.analysis." prefix */
  analysis?: string;
  retransmitted?: boolean;
  cause?: string;
  fate?: 'delivered' | 'dropped';
  nth?: number;
  after?: string;
}

export interface Anchor {
  event?: EventQuery;
  frame?: FrameQuery;
}

export const ANSWER_KINDS = [
  'wait_s',
  'rto_s',
  'timer_s',
  'cwnd',
  'ssthresh',
  'segment',
  'retransmission',
  'cause',
  'dupacks',
  'len',
  'host',
  'state',
] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

export type ChoiceValue = string | number | boolean;

export interface Choice {
  text: string;
  value: ChoiceValue;
}

export interface Question {
  prompt: string;
  answer: AnswerKind;
  reveal: Anchor;
  choices: Choice[];
  tolerance?: number;
  explain?: string;
}

/** The lesson's run beside the same run with these `set` changes. */
export interface Compare {
  set: string[];
  label: string;
}

export interface Step {
  id?: string;
  at: Anchor;
  caption: string;
  question?: Question;
  compare?: Compare;
}

export interface Lesson {
  version: 1;
  name: string;
  title: string;
  description?: string;
  /** a scenario written out, or a shipped scenario's name */
  scenario: Record<string, unknown> | string;
  set?: string[];
  steps: Step[];
}
