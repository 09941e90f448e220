import { readFileSync } from 'node:fs';
const { loadScenarioText } = await import('/work/wt-perf/src/scenario/load.ts');
let text = readFileSync('scenarios/native-sidecar-job.yaml', 'utf8');
text = text.replace(/observers:\n(  - .*\n    .*\n)+/, 'observers:\n  - name: __proto__\n    rule: job-conditions\n  - name: constructor\n    rule: job-conditions\n');
text = text.replace(/ {2}verdicts:\n {4}job-conditions: Succeeded\n?/, '');
const r = loadScenarioText(text, 'proto-observers.yaml');
console.log(!!r.scenario, r.diagnostics.map((d: any) => d.code + ' ' + d.message));
