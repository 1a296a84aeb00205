// The rounds of the NFC paper's long session (5.3.2.2, Figs. 5.19, 5.20), which the paper
// does not list: "68 data packets of varying sizes", small and large mixed, from the
// appliance, each answered by the end user's device. Drawn from a seeded generator with the
// character the paper describes, each choice from its text:
//  - runs of tiny requests, 1 to 9 bytes ("very small data packets of less than 10 bytes",
//    the step-by-step cooking commands that let the RTO shrink);
//  - each run ended by one recipe of 1100 to 2000 bytes ("recipes greater than 1 kB": two
//    segments at the 1024-byte MSS), which the shrunken RTO cannot cover;
//  - runs of 5 to 10, so that 68 requests hold about 8 recipes: the paper's Fig. 5.19 has 8
//    spurious retransmissions, one after each series of small packets (our 68 requests are
//    about 76 data segments, the recipes being two each);
//  - tiny replies, and no pause between rounds (68 packets in 22.58 s leave no room for
//    one).
//
//   npx tsx scripts/nfc-long-session.ts   prints the rounds as the replay file has them
// web/src/core/replay/replays.test.ts checks that nfc-long-session.json holds exactly these.
//
// mixedRounds() draws the sequences of the replay's size-mix sweep (mix_sweep.ts): the
// same tiny commands, replies and recipes, but a given number of recipes placed at random
// among the 68, so that the share of large requests is the swept value and nothing else.
import { rng } from '../util/seeded_rng.ts';

export interface Round {
  req: number;
  resp: number;
}

export const LONG_SESSION_SEED = 1;
export const LONG_SESSION_REQUESTS = 68;

export function longSessionRounds(seed = LONG_SESSION_SEED, n = LONG_SESSION_REQUESTS): Round[] {
  const r = rng(seed);
  const between = (lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
  const rounds: Round[] = [];
  let smallLeft = between(5, 10);
  while (rounds.length < n) {
    const recipe = smallLeft === 0;
    rounds.push({ req: recipe ? between(1100, 2000) : between(1, 9), resp: between(1, 9) });
    smallLeft = recipe ? between(5, 10) : smallLeft - 1;
  }
  return rounds;
}

/** `large` recipes (1100 to 2000 bytes) at seeded random places among `n` requests, the
 *  rest tiny commands (1 to 9 bytes); every reply tiny. The same seed and count always give
 *  the same sequence. */
export function mixedRounds(seed: number, large: number, n = LONG_SESSION_REQUESTS): Round[] {
  if (!Number.isInteger(large) || large < 0 || large > n) throw new RangeError(`mixedRounds: large is ${large}, not a whole number from 0 to ${n}`);
  const r = rng(seed);
  const between = (lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
  // A partial Fisher-Yates shuffle: the first `large` places of a random permutation.
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < large; i++) {
    const j = between(i, n - 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const recipes = new Set(order.slice(0, large));
  return Array.from({ length: n }, (_, i) => ({ req: recipes.has(i) ? between(1100, 2000) : between(1, 9), resp: between(1, 9) }));
}
