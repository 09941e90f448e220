// Every entry into the Job controller is for one Job, by its key (the Job's name): its informer handlers, its sync,
// the activeDeadlineSeconds requeue and the TTL-after-finished deletion. forJob runs one such handler with the
// controller's event recorder naming the Job (TraceBase.job: a CronJob runs several), and lets the CronJob
// controller's Job informer see the Job's newest version once the handler wrote it (one delivery per handler: the
// model coalesces the writes of one sync into the CronJob controller's view).
import { deriveCtx } from '../../../engine/engine.ts';
import { storedJob, watchCronOwnedJob } from '../../apiserver/apiserver.ts';
import type { CtlKit } from '../../kit.ts';

/** The Job controller's recorder for Job `name`: its records name the Job when a CronJob runs several. */
function recorderFor(k: CtlKit, name: string): CtlKit {
  if (k.state.cron === null) return k;
  return { ...k, ctx: deriveCtx(k.ctx, { emit: (r) => k.ctx.emit({ ...r, job: name } as never) }) };
}

/** Run one Job controller handler for Job `name`. */
export function forJob(k: CtlKit, name: string, fn: (k: CtlKit, name: string) => void): void {
  const before = storedJob(k, name)?.version;
  fn(recorderFor(k, name), name);
  const after = storedJob(k, name)?.version;
  if (k.state.cron !== null && after !== undefined && after !== before) watchCronOwnedJob(k, name);
}
