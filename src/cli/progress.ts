import { SingleBar } from 'cli-progress';

/** Progress of a long command: a bar on a terminal, a few plain lines otherwise (logs, CI, pipes). */
export interface Progress {
  /** `done` of `total` (files, or a fraction when total is 1); `label` says what is going on. */
  update(done: number, total: number, label?: string): void;
  stop(): void;
}

/** A bar on stderr (stdout stays the command's result, so it can be piped). */
export function terminalProgress(title: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const bar = new SingleBar({
    stream,
    format: `${title} [{bar}] {percentage}% | {value}/{total} | {label}`,
    hideCursor: true,
    clearOnComplete: false,
    barsize: 24,
    barCompleteChar: '\u2588',
    barIncompleteChar: '\u2591',
    etaBuffer: 20,
  });
  let started = false;
  return {
    update(done, total, label = '') {
      if (!started) {
        bar.start(total, done, { label });
        started = true;
      }
      bar.setTotal(total);
      bar.update(done, { label: label.length > 60 ? `…${label.slice(-59)}` : label });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/** Plain lines at every tenth of the way and at the end: readable in a log, never a flood. */
export function lineProgress(title: string, write: (line: string) => void): Progress {
  let lastTenth = -1;
  return {
    update(done, total, label) {
      const tenth = total > 0 ? Math.floor((done / total) * 10) : 10;
      if (tenth === lastTenth && done !== total) return;
      lastTenth = tenth;
      write(`${title}: ${done}/${total}${label ? ` (${label})` : ''}`);
    },
    stop() {},
  };
}
