// The live session's place among the scenarios: the name the picker and the URL use for it
// (#s=arduino-live opens the page ready to connect to a board).
export const LIVE_SCENARIO_NAME = 'arduino-live';
export const LIVE_SCENARIO_TITLE = 'Arduino over Web Serial (live)';
