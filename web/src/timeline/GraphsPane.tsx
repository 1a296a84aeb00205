export function GraphsPane() {
  return null;
}
