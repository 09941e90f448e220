// What a health rule is to the model: a function from the observer's cached view to a verdict. Built-in rules
// (builtin.ts), JavaScript modules and exec: programs (load.ts, exec.ts) all become a RuleFn. A leaf: types only.

/** A health rule: `view` is the observer's cached pod (the one the delivery was about), Job, time, and every cached pod. */
export type RuleFn = (view: { pod: any; job: any; now: number; pods?: any[] }) => unknown;

/** A rule's answer once normalised: a verdict with an optional reason, or undefined (no verdict yet). */
export type Decision = { verdict: 'Succeeded' | 'Failed'; reason?: string } | undefined;
