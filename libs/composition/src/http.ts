/** Starting and stopping an HTTP server. */
import type { Server } from 'node:http';
import type { Express } from 'express';

export async function listen(app: Express, port: number, host: string): Promise<{ server: Server; port: number }> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, host, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : port };
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
