import { secretFileKind, type SecretFileKind } from '../secrets/secretFiles';
import { parseCommand } from './shellQuoting';
import type { Step } from './model';
import type { Redactor } from './redact';

/**
 * Which tool calls write or read a secret-bearing file (`.env`, keys, `.npmrc`…), so that their input and their
 * result are redacted as such a file's text: the path fields of a tool's JSON input (Write, Edit, Read and the other
 * agents' file tools), the files a shell command names, and the files of a patch (each section as its own file).
 */

/** Path fields of the agents' file tools (Claude Code, Codex, Cline/Roo, Cursor, Copilot, Continue, OpenCode). */
const PATH_FIELD =
  /\\{0,3}"(?:file_path|filePath|path|notebook_path|target_file|targetFile|filename|absolute_path|absolutePath|uri)\\{0,3}"\s*:\s*\\{0,3}"((?:[^"\\]|\\[^"])+)\\{0,3}"/g;
/** Headers of a patch: Codex's `*** Update File: p`, a unified diff's `+++ b/p` and `diff --git a/p b/p`. */
const PATCH_HEADER =
  /\*\*\* (?:Add|Update|Delete) File: ([^\n\\"]+)|(?:^|\n|\\n)\+\+\+ (?:b\/)?([^\n\\"\t]+)|diff --git a\/\S+ b\/([^\n\\"]+)/g;
const SHELL_TOOL = /bash|shell|exec|terminal|command|run/i;
/** A word of a command line that names a file (not a flag, not a variable). */
const FILE_WORD = /^(?![-$])(?=.*[./]|id_)/;

function kindOfPaths(paths: Iterable<string>): SecretFileKind | undefined {
  for (const path of paths) {
    const kind = secretFileKind(path.trim());
    if (kind) return kind;
  }
  return undefined;
}

/** The words of a command line that name files; a line the parser cannot read is split into words as a fallback. */
function commandFiles(command: string): string[] {
  const parsed = parseCommand(command);
  const words = parsed?.readable ? parsed.fileWords : command.split(/[\s;|&<>()'"`=]+|\\[nt]/);
  return words.filter((w) => FILE_WORD.test(w));
}

/** The command line of a shell tool's input: its JSON `command` (a string or an argv) when it is JSON, else the text. */
function inputCommand(input: string): string {
  try {
    const parsed = JSON.parse(input) as { command?: unknown; cmd?: unknown };
    const command = parsed?.command ?? parsed?.cmd;
    if (typeof command === 'string') return command;
    if (Array.isArray(command) && command.every((a) => typeof a === 'string'))
      return command.map((a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
  } catch {
    // not JSON: the input is the command line itself
  }
  return input;
}

/** The secret-bearing file a tool call writes or reads as a whole (not a patch's sections), if any. */
export function callSecretFile(tool: string, input: string, command: string | undefined): SecretFileKind | undefined {
  const byPath = kindOfPaths([...input.matchAll(PATH_FIELD)].map((m) => m[1]));
  if (byPath) return byPath;
  const line = command ?? (SHELL_TOOL.test(tool) ? inputCommand(input) : undefined);
  return line === undefined ? undefined : kindOfPaths(commandFiles(line));
}

/** A patch's text redacted section by section: a secret-bearing file's as such, the rest as any text. */
function redactPatch(input: string, redactor: Redactor): string | undefined {
  const headers = [...input.matchAll(PATCH_HEADER)];
  if (!headers.some((h) => secretFileKind((h[1] ?? h[2] ?? h[3]).trim()))) return undefined;
  const parts = [redactor.redact(input.slice(0, headers[0].index))];
  headers.forEach((h, i) => {
    const section = input.slice(h.index, headers[i + 1]?.index ?? input.length);
    const kind = secretFileKind((h[1] ?? h[2] ?? h[3]).trim());
    parts.push(kind ? redactor.redactSecretFile(section, kind) : redactor.redact(section));
  });
  return parts.join('');
}

/** A tool call's input, redacted; `kind` is the secret-bearing file it writes or reads as a whole, if any. */
export function redactToolInput(input: string, kind: SecretFileKind | undefined, redactor: Redactor): string {
  if (kind) return redactor.redactSecretFile(input, kind);
  return redactPatch(input, redactor) ?? redactor.redact(input);
}

/**
 * A tool call's input and command line, redacted. Where the input holds the command as a JSON string, that string
 * becomes the redacted command line, so its home folders keep their meaning there too (`Redactor.redactCommand`);
 * a patch naming a secret-bearing file is redacted section by section instead.
 */
export function redactToolCall(
  input: string,
  command: string | undefined,
  kind: SecretFileKind | undefined,
  redactor: Redactor,
  home?: string,
): { input: string; command: string | undefined } {
  if (command === undefined) return { input: redactToolInput(input, kind, redactor), command };
  const redactedCommand = redactor.redactCommand(command, kind, home);
  const escaped = JSON.stringify(command).slice(1, -1);
  if (!escaped || !input.includes(escaped) || input.search(PATCH_HEADER) >= 0)
    return { input: redactToolInput(input, kind, redactor), command: redactedCommand };
  // each copy is redacted (and counted) as the whole input was: the count is of secrets in each stored field
  const parts = input.split(escaped);
  const pieces = parts.map((part, i) => {
    const rest = part ? redactToolInput(part, kind, redactor) : part;
    if (i === parts.length - 1) return rest;
    return rest + JSON.stringify(redactor.redactCommand(command, kind, home)).slice(1, -1);
  });
  return { input: pieces.join(''), command: redactedCommand };
}

/**
 * Steps already redacted as text (a bundle's), redacted again where they write or read a secret-bearing file; the
 * steps changed are copies.
 */
export function redactSecretFileSteps(steps: readonly Step[], redactor: Redactor): Step[] {
  const calls = new Map<string, SecretFileKind>();
  return steps.map((step) => {
    if (step.kind === 'tool_call') {
      const kind = callSecretFile(step.tool, step.input, step.command);
      if (kind) calls.set(step.callId, kind);
      const { input, command } = kind
        ? redactToolCall(step.input, step.command, kind, redactor)
        : { input: redactToolInput(step.input, kind, redactor), command: step.command };
      return input === step.input && command === step.command ? step : { ...step, input, command };
    }
    if (step.kind === 'tool_result') {
      const kind = calls.get(step.callId);
      const output = kind ? redactor.redactSecretFile(step.output, kind) : step.output;
      return output === step.output ? step : { ...step, output };
    }
    return step;
  });
}
