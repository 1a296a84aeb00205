// The replay table's data: every run of the replay shown (with the page's changed
// parameters applied) run in a worker of its own, so the main run and its views are not
// held up, and each row measured and judged as `stackscope replay` does (web/src/core/replay).
import { useEffect, useState } from 'react';
import { EngineClient, RunStopped } from '../../core/engine/client.ts';
import { ReplayPlanError, runCount, runReplay, type ReplayResult } from '../../core/replay/replay.ts';
import type { Scenario } from '../../core/scenarios/types.ts';

export type ReplayState =
  { status: 'running'; done: number; total: number } | { status: 'ready'; result: ReplayResult } | { status: 'failed'; message: string };

const client = new EngineClient();

export function useReplayResults(replay: Scenario | null): ReplayState | null {
  const [state, setState] = useState<ReplayState | null>(null);
  useEffect(() => {
    if (!replay?.reference) {
      setState(null);
      return;
    }
    let live = true;
    let done = 0;
    const total = runCount(replay);
    setState({ status: 'running', done, total });
    runReplay(replay, async (json) => {
      const r = await client.run(json);
      if (live) setState({ status: 'running', done: ++done, total });
      return r;
    })
      .then((result) => live && setState({ status: 'ready', result }))
      .catch((e: unknown) => {
        if (!live || e instanceof RunStopped) return; // a newer replay's runs took the worker
        setState({ status: 'failed', message: e instanceof ReplayPlanError || e instanceof Error ? e.message : String(e) });
      });
    return () => {
      live = false;
    };
  }, [replay]);
  return state;
}
