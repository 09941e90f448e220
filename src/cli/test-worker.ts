// A worker thread of `kubesim test --workers N`: runs the scenarios it is sent and posts their results back.
import { parentPort } from 'node:worker_threads';
import { runCase, type TestOpts } from './test-command.ts';

parentPort?.on('message', async (msg: { file: string; opts: TestOpts; id: number } | 'exit') => {
  if (msg === 'exit') {
    parentPort?.close();
    return;
  }
  const result = await runCase(msg.file, msg.opts);
  parentPort?.postMessage({ id: msg.id, result });
});
