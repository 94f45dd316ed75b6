/** The bench finds the backends' server processes by the ports they listen on, to read their CPU. */
import { createServer, type Server } from 'node:net';
import { BackendProcesses, listeningInodes, localPort, pidListeningOn } from '../../bench/deployments/backend-processes';

const TABLE = [
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
  '   0: 0100007F:2384 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 51234 1 0000000000000000 100 0 0 10 0',
  '   1: 0100007F:2384 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 51299 1 0000000000000000 20 4 30 10 -1',
  '   2: 0100007F:6989 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 51300 1 0000000000000000 100 0 0 10 0',
].join('\n');

function listen(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

describe('backend processes', () => {
  it('reads the listening sockets of a port from a /proc/net/tcp table, not its connections', () => {
    expect(listeningInodes(TABLE, 9092)).toEqual(['51234']);
    expect(listeningInodes(TABLE, 27017)).toEqual(['51300']);
    expect(listeningInodes(TABLE, 9200)).toEqual([]);
  });

  it('takes the port of a loopback address and leaves remote hosts out', () => {
    expect(localPort('127.0.0.1:9092')).toBe(9092);
    expect(localPort('localhost:9092,localhost:9093')).toBe(9092);
    expect(localPort('mongodb://127.0.0.1:27017/')).toBe(27017);
    expect(localPort('mongodb://127.0.0.1/')).toBe(27017);
    expect(localPort('http://localhost:9200')).toBe(9200);
    expect(localPort('http://search.example.com:9200')).toBeUndefined();
  });

  it('finds the process listening on a port, and reads its CPU time', async () => {
    const { server, port } = await listen();
    try {
      expect(pidListeningOn(port)).toBe(process.pid);
      const processes = new BackendProcesses({ kafka: `127.0.0.1:${port}`, mongodb: 'mongodb://db.example.com:27017', elasticsearch: 'http://127.0.0.1:1' });
      const before = processes.cpuMs();
      expect(Object.keys(before)).toEqual(['kafka']);
      // Busy until the clock ticks (10 ms of CPU), within a deadline.
      let after = before.kafka!;
      for (const end = Date.now() + 5000; after === before.kafka! && Date.now() < end; ) after = processes.cpuMs().kafka!;
      expect(after).toBeGreaterThan(before.kafka!);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
