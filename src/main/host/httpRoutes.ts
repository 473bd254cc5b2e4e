// Extra HTTP endpoints of the browser host (downloads and uploads that a WebSocket
// frame is a poor fit for). Token and origin are checked before a route runs.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from '../core/createCore';

export interface HttpRoute {
  method: 'GET' | 'POST';
  path: string;
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
}

export function registerHttpRoutes(routes: HttpRoute[], core: Core): void {
  void routes;
  void core;
}
