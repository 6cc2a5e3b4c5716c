/**
 * The end of a `switch` that must name every member of a union (every block type, question type or
 * format): `unhandled(value)` accepts only `never`, so a member added to the union and not handled fails
 * to compile at each such switch instead of falling silently through a `default:`.
 */
export function unhandled(value: never, what = "case"): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}
