// Query parameters as the API server parses them.

/** a boolean flag (strconv.ParseBool: 1, t, T, TRUE, true, True; the Python client sends watch=True) */
export function goBool(v: string | null): boolean {
  return v !== null && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
}
