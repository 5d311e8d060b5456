// A tiny model on 127.0.0.1 for the extension tests: reflection prompts get one lesson per failing command,
// aggregation prompts every lesson, citing its labels. Records every request with its Authorization header.
import { createServer } from 'node:http';
import * as vscode from 'vscode';
import type { AddressInfo } from 'node:net';
import { captureHome, workspaceFolder } from './combee';
import { ClaudeSession } from './sessions';

interface ChatBody {
  model?: string;
  messages: Array<{ role: string; content: string }>;
}

/** A request the model got: the chat body (when it was one), its path and its Authorization header. */
export interface SeenRequest extends Partial<ChatBody> {
  url?: string;
  authorization?: string;
}

function answer(body: ChatBody): unknown {
  const prompt = body.messages.map((m) => m.content).join('\n');
  if (/You review one coding-agent session/.test(prompt)) {
    const lessons: unknown[] = [];
    const lines = prompt.split('\n');
    lines.forEach((line, i) => {
      const call = /^#(\d+) TOOL \w+: \$ (.+)$/.exec(line);
      const failed = /^#(\d+) RESULT FAILED/.exec(lines[i + 1] ?? '');
      if (call && failed)
        lessons.push({
          section: 'Pitfalls',
          content: `Endpoint lesson: \`${call[2]}\` needs its prerequisites first.`,
          kind: 'pitfall',
          evidence_steps: [Number(call[1]), Number(failed[1])],
        });
    });
    return { lessons, bullet_tags: [] };
  }
  const items = [...prompt.matchAll(/^((?:L|D)[\d.]+) \(\d+ session\(s\)\): (?:\[[^\]]*\] |ADD to "[^"]*": )?(.*)$/gm)];
  const byText = new Map<string, string[]>();
  for (const [, label, text] of items) byText.set(text, [...(byText.get(text) ?? []), label]);
  return {
    operations: [...byText].map(([content, sources]) => ({
      type: 'ADD',
      section: 'Pitfalls',
      content,
      kind: 'pitfall',
      sources,
    })),
  };
}

/**
 * Starts the server; `requests` holds each chat request's body plus its `authorization` header. With `failWith`
 * (e.g. 401) every request gets that status and an OpenAI-style error instead.
 */
/** A running loopback model: its base URL, what it was sent, and how to stop it. */
export interface LoopbackModel {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export async function startLoopbackModel({ failWith }: { failWith?: number } = {}): Promise<LoopbackModel> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c;
    });
    req.on('end', () => {
      if (failWith) {
        requests.push({ url: req.url, authorization: req.headers.authorization });
        res.writeHead(failWith, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
          }),
        );
        return;
      }
      if (!req.url?.endsWith('/chat/completions')) {
        requests.push({ url: req.url, authorization: req.headers.authorization });
        res.writeHead(404).end('{}');
        return;
      }
      const request = JSON.parse(body) as ChatBody;
      requests.push({ ...request, url: req.url, authorization: req.headers.authorization });
      const content = JSON.stringify(answer(request));
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          created: 0,
          model: request.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A Claude Code session with one failing command, recorded in `cwd` (default: this workspace), under `home`. */
export function writeFailingSession(
  sessionId: string,
  command: string,
  where: { home?: string; cwd?: string } = {},
): void {
  new ClaudeSession(sessionId, where.cwd ?? workspaceFolder().uri.fsPath, 'now')
    .user('ship the invoices feature')
    .bash(command, 'Error: no seed data', 1)
    .write(where.home ?? captureHome());
}

/**
 * For the enclosing `describe`: a loopback model started before its tests and the user's settings pointed at it
 * (provider `openai`, model `local-sim`), both put back after them. Returns the running model.
 */
export function useLoopbackEndpoint(options: { failWith?: number } = {}): () => LoopbackModel {
  const config = () => vscode.workspace.getConfiguration('combee');
  let model: LoopbackModel | undefined;
  before(async () => {
    model = await startLoopbackModel(options);
    await config().update('provider', 'openai', vscode.ConfigurationTarget.Global);
    await config().update('openai.baseUrl', model.url, vscode.ConfigurationTarget.Global);
    await config().update('openai.model', 'local-sim', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    for (const key of ['openai.baseUrl', 'openai.model'])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await config().update('provider', 'offline', vscode.ConfigurationTarget.Global);
    await model?.close();
  });
  return () => {
    if (!model) throw new Error('the loopback model is not started (outside a test?)');
    return model;
  };
}
