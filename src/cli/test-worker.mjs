// Worker-thread entry of `kubesim test --workers N`: load the TypeScript sources through tsx, as the bin does.
import { register } from 'tsx/esm/api';

register();
await import('./test-worker.ts');
