import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import { EventMetrics, serveMetrics } from './metrics.js';

/** Does a TCP connection to host:port succeed? */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

const health = async () => ({ ok: true });

describe('METRICS_HOST', () => {
  it('defaults to 127.0.0.1, takes an IP address or a host name, and refuses anything else naming the variable', () => {
    expect(loadConfig({}).METRICS_HOST).toBe('127.0.0.1');
    expect(loadConfig({ METRICS_HOST: '0.0.0.0' }).METRICS_HOST).toBe('0.0.0.0');
    expect(loadConfig({ METRICS_HOST: '::' }).METRICS_HOST).toBe('::');
    expect(loadConfig({ METRICS_HOST: 'localhost' }).METRICS_HOST).toBe('localhost');
    expect(() => loadConfig({ METRICS_HOST: 'http://0.0.0.0' })).toThrow(/METRICS_HOST/);
    expect(() => loadConfig({ METRICS_HOST: '127.0.0.1:9464' })).toThrow(/METRICS_HOST/);
  });

  it('the metrics server binds the configured address (by default 127.0.0.1: not reachable on another address) and its url says where it answers', async () => {
    const config = loadConfig({});
    const server = await serveMetrics(new EventMetrics(), { port: 0, host: config.METRICS_HOST, health });
    try {
      expect(server.host).toBe(config.METRICS_HOST);
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      // 127.0.0.2 is loopback too: a wildcard bind (0.0.0.0, as before) would answer there.
      expect(await connects('127.0.0.2', server.port)).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('METRICS_HOST=0.0.0.0 listens on every address (the containers: their published port), its url on loopback', async () => {
    const config = loadConfig({ METRICS_HOST: '0.0.0.0' });
    const server = await serveMetrics(new EventMetrics(), { port: 0, host: config.METRICS_HOST, health });
    try {
      expect(server.host).toBe('0.0.0.0');
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      expect(await connects('127.0.0.2', server.port)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('serveMetrics without a host binds loopback only', async () => {
    const server = await serveMetrics(new EventMetrics(), { port: 0, health });
    try {
      expect(server.host).toBe('127.0.0.1');
      expect(await connects('127.0.0.2', server.port)).toBe(false);
    } finally {
      await server.close();
    }
  });
});
