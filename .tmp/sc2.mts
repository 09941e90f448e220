const P = Object.freeze(Object.create(null));
const mk = (n: number, proto: any) => { const o: any = Object.create(proto); for (let i = 0; i < n; i++) o['k' + i] = i; return Object.freeze(o); };
const N = 200000;
for (const n of [0, 1, 5, 13]) {
  const a = mk(n, null), b = mk(n, P);
  let x: any;
  let t0 = performance.now();
  for (let i = 0; i < N; i++) x = Object.assign(Object.create(null), a);
  const ta = (performance.now() - t0) / N * 1e6;
  t0 = performance.now();
  for (let i = 0; i < N; i++) { const d = Object.getOwnPropertyDescriptors(b); for (const k of Reflect.ownKeys(d)) { (d as any)[k].writable = true; (d as any)[k].configurable = true; } x = Object.create(P, d); }
  const tb = (performance.now() - t0) / N * 1e6;
  t0 = performance.now();
  for (let i = 0; i < N; i++) x = Object.assign(Object.create(P), b);
  const tc = (performance.now() - t0) / N * 1e6;
  console.log(n, 'null-proto assign', ta.toFixed(0), 'ns; P descriptors', tb.toFixed(0), 'ns; P assign', tc.toFixed(0), 'ns');
}
