/** `/restli/docs`: the REST routes, their parameters and examples, rendered from REST_ROUTES. */
import { Router } from 'express';
import { REST_ROUTES, type RouteDoc } from '../route-docs';
import { describeAccess, routeAccessOf } from '../auth/route-access';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function routeTitle(r: RouteDoc): string {
  return `${r.method} ${r.path}${r.action ? `?action=${r.action}` : ''}`;
}

const routeId = (r: RouteDoc) => routeTitle(r).replace(/\W+/g, '-');

function routeSection(r: RouteDoc): string {
  const params = r.params.length
    ? `<table><thead><tr><th>parameter</th><th>type</th><th>required</th><th>default</th><th>meaning</th></tr></thead><tbody>${r.params
        .map((p) => `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.type)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${escape(p.default ?? '')}</td><td>${escape(p.description)}</td></tr>`)
        .join('')}</tbody></table>`
    : '<p>No parameters.</p>';
  const body = r.example.body === undefined ? '' : `\n${JSON.stringify(r.example.body, null, 2)}`;
  const response = r.example.response === undefined ? '' : `<p>Example response:</p><pre>${escape(JSON.stringify(r.example.response, null, 2))}</pre>`;
  return `<section class="route" id="${escape(routeId(r))}">
<h3><code>${escape(routeTitle(r))}</code></h3>
<p>${escape(r.summary)}</p>
${params}
<p>Returns: ${escape(r.returns)}</p>
<p>Who may call it (with authentication on): ${escape(describeAccess(routeAccessOf(r.method, r.path, r.action)?.rule.access))}</p>
<p>Example request:</p><pre>${escape(r.example.request + body)}</pre>
${response}
</section>`;
}

export function renderDocs(routes: readonly RouteDoc[]): string {
  const resources = [...new Set(routes.map((r) => r.resource))];
  const toc = resources
    .map((res) => `<li><a href="#${escape(res)}">${escape(res)}</a><ul>${routes.filter((r) => r.resource === res).map((r) => `<li><a href="#${escape(routeId(r))}"><code>${escape(routeTitle(r))}</code></a></li>`).join('')}</ul></li>`)
    .join('');
  const sections = resources.map((res) => `<h2 id="${escape(res)}">${escape(res)}</h2>${routes.filter((r) => r.resource === res).map(routeSection).join('\n')}`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>cairn REST API</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; line-height: 1.4; }
table { border-collapse: collapse; margin: .5rem 0; } td, th { border: 1px solid #ccc; padding: .25rem .5rem; text-align: left; vertical-align: top; }
pre { background: #f6f6f6; padding: .5rem; overflow-x: auto; } section.route { border-top: 1px solid #ddd; padding-top: .5rem; }
</style>
</head>
<body>
<h1>cairn REST API (Rest.li style)</h1>
<p>Every route is also served under <code>/api/gms</code> and <code>/gms</code>. Actions are <code>POST /&lt;resource&gt;?action=&lt;name&gt;</code> with a JSON body of named parameters; a non-void action answers <code>{"value": ...}</code>. Errors are <code>{exceptionClass, message, status}</code>. The GraphQL API is at <code>POST /api/graphql</code>, with an explorer at <a href="/api/graphiql">/api/graphiql</a>.</p>
<ul>${toc}</ul>
${sections}
</body>
</html>`;
}

export function docsRouter(): Router {
  const router = Router();
  const html = renderDocs(REST_ROUTES);
  router.get('/restli/docs', (_req, res) => {
    res.type('html').send(html);
  });
  router.get('/restli/docs/routes.json', (_req, res) => {
    res.json(REST_ROUTES);
  });
  return router;
}
