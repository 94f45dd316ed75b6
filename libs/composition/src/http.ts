/** Starting and stopping an HTTP server. */
import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import type { DirectHandler } from '@cairn/api-rest';

/**
 * Connections a burst of clients may open before the server accepts them: past Node's default of
 * 511, Linux drops their handshakes, and clients wait 1, 3, 7, 15 and 31 s to try again or have
 * their first request reset (the kernel caps it at net.core.somaxconn).
 */
const LISTEN_BACKLOG = 4096;

/** `direct`: requests it answers never reach the express app. */
export async function listen(app: Express, port: number, host: string, direct?: DirectHandler): Promise<{ server: Server; port: number }> {
  const server = createServer(direct ? (req, res) => direct(req, res) || app(req, res) : app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => resolve());
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
