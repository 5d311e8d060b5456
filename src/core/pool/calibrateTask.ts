import { threadId } from 'node:worker_threads';
import { describeCalibration, describePlan, planCalibration, runCalibration } from '../learn/capacity/calibrate';
import { saveCalibration } from '../service/calibrateModel';
import { PortRpc } from '../util/portRpc';
import type { CalibrateTask, CalibrateTaskResult } from './calibrateProtocol';
import type { HostApi, WorkerApi } from './learnProtocol';
import { rolesFor } from './learnTask';

/** A calibration inside a worker thread: the host relays progress, the cancel and (VS Code's models) chat turns. */
export async function runCalibrateTask(task: CalibrateTask): Promise<CalibrateTaskResult> {
  const controller = new AbortController();
  const host = new PortRpc<HostApi, WorkerApi>(task.port, { cancel: () => controller.abort() });
  try {
    // never the call cache: a calibration measures the model as it answers now
    const roles = rolesFor(task.provider, host, undefined, undefined, task.options.upperBoundTokens);
    const capacity = roles.aggregator.capacity;
    if (roles.info.provider === 'offline' || !capacity)
      throw new Error('calibration needs a model: the offline learner has no capacity to measure');
    const { upperBoundTokens, seed, prices, reset } = task.options;
    const plan = planCalibration({ capacity, upperBoundTokens, seed, prices });
    const planned = {
      thread: threadId,
      estimate: plan.estimate,
      plan: describePlan(plan, `${roles.info.provider}/${roles.info.model}`),
    };
    if (task.stage === 'plan') return planned;
    const result = await runCalibration(plan, roles.aggregator, controller.signal, (message, fraction) =>
      host.notify('progress', { message, fraction }),
    );
    const saved = await saveCalibration(task.storeDir, roles.info, result, reset === true);
    return { ...planned, run: { summary: describeCalibration(result), result, profileTokens: saved.profileTokens } };
  } finally {
    task.port.close();
  }
}
