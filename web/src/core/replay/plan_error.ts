// A run of a replay that cannot be built (a bad override), or a sweep whose rows do not
// share a unit: the replay file is wrong, found before anything runs.
export class ReplayPlanError extends Error {
  override name = 'ReplayPlanError';
}
