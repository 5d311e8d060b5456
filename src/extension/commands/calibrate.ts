import * as vscode from 'vscode';
import type { CalibrationResult } from '../../core/learn/capacity/calibrate';
import { isAbortError } from '../../core/util/concurrency';
import { calibrateInWorker } from '../learnInWorker';
import { chooseProvider } from '../llm/providerChoice';
import type { Services } from '../services';
import { readSettings } from '../settings';

/**
 * Combee: Calibrate Model Capacity — the calls and their cost in a modal (unless `confirmed`, the tests), then the
 * calls with progress and a cancel. Planning and sending happen in a worker (the tokenizer is never loaded on the
 * host); the host only relays progress and, for VS Code's models, the chat turns.
 */
export async function calibrateCapacityCommand(
  services: Services,
  confirmed?: unknown,
): Promise<CalibrationResult | undefined> {
  if (services.running) {
    void vscode.window.showInformationMessage('Combee is learning now; calibrate once the run is done.');
    return undefined;
  }
  const choice = await chooseProvider(services, true);
  if (choice.info.provider === 'offline') {
    void vscode.window.showInformationMessage(
      'Combee: calibration needs a model. The offline learner has no capacity to measure: set combee.provider (or an API key with Combee: Set API Key) first.',
    );
    return undefined;
  }
  const settings = readSettings();
  // the setting is the bound: no call is larger than what a run may send
  const options = { upperBoundTokens: settings.aggregationCapacity, prices: settings.prices[choice.info.model] };
  let started = false;
  try {
    const planned = await calibrateInWorker(
      services,
      choice,
      'plan',
      options,
      { onProgress: () => undefined },
      new AbortController().signal,
    );
    if (confirmed !== true) {
      const answer = await vscode.window.showInformationMessage(
        `Calibrate ${choice.info.model}?`,
        {
          modal: true,
          detail: `${planned.plan}\nWhat each call keeps and drops is kept for this model; the next learning run plans its calls with it, never above combee.llm.aggregationCapacityTokens.`,
        },
        'Calibrate',
      );
      if (answer !== 'Calibrate') return undefined;
    }
    if (services.running) {
      void vscode.window.showInformationMessage('Combee started learning meanwhile; calibrate once the run is done.');
      return undefined;
    }
    services.setRunning(true);
    started = true;
    const run = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Combee: calibrating', cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        const subscription = token.onCancellationRequested(() => controller.abort());
        try {
          return (
            await calibrateInWorker(
              services,
              choice,
              'run',
              options,
              { onProgress: (message) => progress.report({ message }) },
              controller.signal,
            )
          ).run;
        } finally {
          subscription.dispose();
        }
      },
    );
    if (!run) return undefined;
    if (run.result.cancelled) {
      services.log.info('calibration cancelled; the calls answered before it are kept');
      return run.result;
    }
    for (const warning of run.result.warnings) services.log.warn(`calibration: ${warning}`);
    services.log.info(`calibration of ${choice.info.provider}/${choice.info.model}:\n${run.summary}`);
    const [verdict] = run.summary.split('\n');
    const next =
      run.profileTokens !== undefined
        ? ` The next run plans with about ${run.profileTokens.toLocaleString('en-US')} tokens per call.`
        : '';
    const failed = run.result.failedCalls > 0 ? ` ${run.result.failedCalls} call(s) failed (see the log).` : '';
    const message = `Combee: ${verdict}${next}${failed}`;
    void (failed ? vscode.window.showWarningMessage(message) : vscode.window.showInformationMessage(message));
    return run.result;
  } catch (error) {
    if (isAbortError(error)) return undefined;
    services.log.error(`calibration failed: ${(error as Error).stack ?? error}`);
    void vscode.window.showErrorMessage(`Combee could not calibrate: ${(error as Error).message}`);
    return undefined;
  } finally {
    if (started) services.setRunning(false);
  }
}
