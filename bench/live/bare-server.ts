/**
 * Bench child (baseline for bench/live.bench.ts): a bare `ws` server. POST /broadcast with a frame
 * as the body answers 204 and then sends exactly those bytes to every open connection (the
 * canonical `ws` broadcast loop), the way the graph server answers a mutation and then fans the
 * committed change out.
 */
import http from 'node:http';
import { WebSocketServer, WebSocket } from 'ws';
import { runChild } from '../lib/child.js';

await runChild(async () => {
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/broadcast') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const frame = Buffer.concat(chunks).toString('utf8');
      res.writeHead(204).end();
      setImmediate(() => {
        for (const c of wss.clients) if (c.readyState === WebSocket.OPEN) c.send(frame);
      });
    });
  });
  const wss = new WebSocketServer({ server, path: '/graphql', perMessageDeflate: false });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as import('node:net').AddressInfo).port;
  return {
    info: { url: `http://127.0.0.1:${port}`, pid: process.pid },
    stop: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
});
