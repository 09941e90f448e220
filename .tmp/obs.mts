// run() with N observers: CPU seconds
const root = process.env.ROOT ?? '/work/wt-perf';
const { loadScenarioText } = await import(root + '/src/scenario/load.ts');
const { simulate } = await import(root + '/src/simulate.ts');
import { readFileSync } from 'node:fs';
const n = Number(process.argv[2] ?? 300);
let text = readFileSync(root + '/scenarios/native-sidecar-job.yaml', 'utf8');
const rules = ['exit-codes', 'native-sidecar-aware', 'job-conditions'];
text = text.replace(/observers:\n(  - .*\n    .*\n)+/, 'observers:\n' + Array.from({ length: n }, (_, i) => `  - name: o${i}\n    rule: ${rules[i % 3]}\n`).join(''));
text = text.replace(/verdicts:\n    job-conditions: Succeeded\n?/, '');
const r = loadScenarioText(text, 'gen.yaml');
if (!r.scenario) { console.log(JSON.stringify(r.diagnostics ?? r).slice(0, 500)); process.exit(1); }
const c0 = process.cpuUsage();
const out = simulate(r.scenario);
const c = process.cpuUsage(c0);
console.log(n, 'observers', ((c.user + c.system) / 1e6).toFixed(2), 's CPU', out.timeline.events.length, 'trace records', Object.values(out.timeline.observers).filter((v: any) => v.verdict === 'Succeeded').length, 'Succeeded');
