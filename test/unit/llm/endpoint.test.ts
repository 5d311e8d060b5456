import assert from 'node:assert/strict';
import { apiKeySecretName, checkEndpoint, EndpointRefusedError, isLoopbackUrl } from '../../../src/core/llm/endpoint';
import { openAiRoles } from '../../../src/core/llm/providers';

describe('endpoint policy', () => {
  it('allows https anywhere and plain http only to this machine', () => {
    for (const url of [
      'https://api.openai.com/v1',
      'https://10.0.0.5:8443/v1',
      'http://127.0.0.1:11434/v1',
      'http://localhost:1234/v1',
      'http://[::1]:8000/v1',
      'http://127.1.2.3/v1',
    ]) {
      assert.doesNotThrow(() => checkEndpoint(url), url);
    }
    for (const url of [
      'http://192.168.1.20:11434/v1',
      'http://evil.example.com/v1',
      'http://localhost.evil.example.com/v1',
      'ftp://127.0.0.1/v1',
      'file:///etc/passwd',
      'not a url',
      'https://user:pass@api.example.com/v1',
    ]) {
      assert.throws(() => checkEndpoint(url), EndpointRefusedError, url);
    }
    assert.doesNotThrow(() => checkEndpoint('http://192.168.1.20:11434/v1', { allowInsecureHttp: true }));
  });

  it('binds a stored key to the endpoint origin: same origin, same key; any other origin, another name', () => {
    assert.equal(apiKeySecretName('https://api.openai.com/v1'), apiKeySecretName('https://api.openai.com/v1/'));
    assert.equal(apiKeySecretName('https://api.openai.com/v1'), 'combee.apiKey:https://api.openai.com');
    const others = [
      'http://api.openai.com/v1',
      'https://api.openai.com:8443/v1',
      'https://api.openai.com.evil.example/v1',
      'https://evil.example/api.openai.com/v1',
    ];
    for (const url of others)
      assert.notEqual(apiKeySecretName(url), apiKeySecretName('https://api.openai.com/v1'), url);
  });

  it('the OpenAI-compatible roles refuse an insecure endpoint before any request', () => {
    assert.throws(
      () => openAiRoles({ baseUrl: 'http://models.lan:8000/v1', apiKey: 'k', model: 'm' }),
      EndpointRefusedError,
    );
    assert.ok(openAiRoles({ baseUrl: 'http://models.lan:8000/v1', apiKey: 'k', model: 'm', allowInsecureHttp: true }));
    assert.ok(isLoopbackUrl('http://127.0.0.1:9/v1'));
    assert.ok(!isLoopbackUrl('http://127.0.0.1.evil.example/v1'));
  });
});
