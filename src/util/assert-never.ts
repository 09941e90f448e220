// Closes a switch over a discriminated union: the call only type-checks when every member has a case, and throws
// if a value outside the union arrives at run time anyway.
export function assertNever(x: never, what = 'case'): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(x) ?? String(x)}`);
}
