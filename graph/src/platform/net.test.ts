import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePorts } from './net.js';

describe('freePorts', () => {
  it('gives different ports, each free to listen on (one port twice once gave a broker one port for both listeners)', async () => {
    for (let round = 0; round < 20; round++) {
      const ports = await freePorts(3);
      expect(new Set(ports).size).toBe(3);
      for (const port of ports) {
        const srv = net.createServer();
        await new Promise<void>((resolve, reject) => {
          srv.once('error', reject);
          srv.listen(port, '127.0.0.1', () => resolve());
        });
        await new Promise((r) => srv.close(r));
      }
    }
  });
});
