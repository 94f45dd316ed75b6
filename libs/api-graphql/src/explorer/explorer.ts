/**
 * GraphiQL, served from the app's own npm packages (React UMD builds and GraphiQL's bundle), so the
 * explorer works offline: no asset comes from a CDN.
 */
import { dirname, join } from 'node:path';
import { Router } from 'express';

/** Asset name → file inside an installed package (or beside this module). */
const ASSETS: Record<string, { file: string; type: string }> = {
  'react.js': { file: join(packageDir('react'), 'umd/react.production.min.js'), type: 'text/javascript' },
  'react-dom.js': { file: join(packageDir('react-dom'), 'umd/react-dom.production.min.js'), type: 'text/javascript' },
  'graphiql.js': { file: join(packageDir('graphiql'), 'graphiql.min.js'), type: 'text/javascript' },
  'graphiql.css': { file: join(packageDir('graphiql'), 'graphiql.min.css'), type: 'text/css' },
  'explorer.js': { file: join(__dirname, 'explorer-page.js'), type: 'text/javascript' },
};

/** Found from this module's folder, which a bundle of it (libs/launcher) names too. */
function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`, { paths: [__dirname] }));
}

function page(endpoint: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>cairn GraphQL explorer</title>
  <link rel="stylesheet" href="assets/graphiql.css">
  <style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
  <div id="graphiql" data-endpoint="${endpoint}">Loading the explorer…</div>
  <script src="assets/react.js"></script>
  <script src="assets/react-dom.js"></script>
  <script src="assets/graphiql.js"></script>
  <script src="assets/explorer.js"></script>
</body>
</html>`;
}

export function explorerRouter(endpoint: string): Router {
  const router = Router();
  router.get('/', (req, res) => {
    // Relative asset URLs need the trailing slash.
    if (!req.originalUrl.split('?')[0].endsWith('/')) return res.redirect(301, `${req.baseUrl}/`);
    res.type('html').send(page(endpoint));
  });
  router.get('/assets/:name', (req, res, next) => {
    const asset = Object.prototype.hasOwnProperty.call(ASSETS, req.params.name) ? ASSETS[req.params.name] : undefined;
    if (!asset) return next();
    res.type(asset.type).set('Cache-Control', 'public, max-age=3600').sendFile(asset.file);
  });
  return router;
}
