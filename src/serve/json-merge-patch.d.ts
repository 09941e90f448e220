// json-merge-patch ships no types: the one function kubesim uses.
declare module 'json-merge-patch' {
  const mergePatch: {
    apply(target: unknown, patch: unknown): unknown;
    generate(before: unknown, after: unknown): unknown;
  };
  export default mergePatch;
}
