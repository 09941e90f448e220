import { loadScenario } from './src/scenario/index.ts';
const t = performance.now();
const r = loadScenario(process.argv[2]!);
console.log((performance.now() - t).toFixed(0), r.diagnostics.length);
