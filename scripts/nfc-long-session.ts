// Prints the rounds of the NFC paper's long session as the replay file has them
// (web/src/core/replay/long_session_rounds.ts draws them; replays.test.ts checks the file).
//
//   npx tsx scripts/nfc-long-session.ts
import { longSessionRounds } from '../web/src/core/replay/long_session_rounds.ts';

console.log(JSON.stringify(longSessionRounds()));
