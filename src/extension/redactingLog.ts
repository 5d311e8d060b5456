import type * as vscode from 'vscode';
import { redactText } from '../core/trace/redact';

const WRITES = new Set(['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace']);

/** The output channel with every message through the built-in secret rules first (warnings may quote session text). */
export function redactingLog(channel: vscode.LogOutputChannel): vscode.LogOutputChannel {
  const clean = (value: unknown) =>
    typeof value === 'string'
      ? redactText(value)
      : value instanceof Error
        ? redactText(value.stack ?? value.message)
        : value;
  return new Proxy(channel, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (typeof property === 'string' && WRITES.has(property))
        return (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args.map(clean));
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}
