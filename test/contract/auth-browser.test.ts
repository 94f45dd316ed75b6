/**
 * Logging in from a real browser: POST /logIn sets an HttpOnly session cookie that the GraphQL
 * endpoints (and the explorer) accept; another site cannot use it (no JSON POSTs without CORS
 * approval); POST /logOut ends the session.
 */
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { AUTH_ENV, createUser, SYSTEM } from '../support/auth';
import { browserAvailable, launchBrowser, type RunningBrowser } from '../support/browser';
import { call, startEmbeddedTarget, type Target } from '../support/target';

const describeInBrowser = browserAvailable() ? describe : describe.skip;

/** Runs in the page: a same-origin fetch, answering status and body. */
function pageFetch(page: Page, path: string, body: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([p, b]) => {
      const res = await fetch(p as string, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    [path, body] as const,
  );
}

const ME = { query: '{ me { corpUser { urn } platformPrivileges { manageTags } } }' };

describeInBrowser('a browser session', () => {
  let t: Target;
  let b: RunningBrowser;
  let user: string;
  let otherSite: Server;
  let otherOrigin: string;

  beforeAll(async () => {
    t = await startEmbeddedTarget(AUTH_ENV);
    user = await createUser(t, 'browser_editor', 'editor-password', 'Editor');
    b = await launchBrowser();
    // A page of another origin that tries to use the session: a cross-site request forgery.
    otherSite = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(`<!doctype html><script>
        fetch(${JSON.stringify(`${t.baseUrl}/api/graphql`)}, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'text/plain' },
          body: JSON.stringify({ query: 'mutation { createTag(input: {id: "forged", name: "forged"}) }' }) })
          .then((r) => { document.title = 'sent ' + r.status; }, () => { document.title = 'blocked'; });
      </script>`);
    });
    await new Promise<void>((r) => otherSite.listen(0, '127.0.0.1', () => r()));
    const address = otherSite.address();
    otherOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await t?.close();
    await new Promise((r) => otherSite?.close(r));
  });

  it('logs in, uses the session with GraphQL and the explorer, and is refused by other sites and after logging out', async () => {
    const page = await b.context.newPage();
    const explorerBefore = await page.goto(`${t.baseUrl}/api/graphiql/`);
    expect(explorerBefore?.status()).toBe(401);

    await page.goto(`${t.baseUrl}/config`);
    expect((await pageFetch(page, '/logIn', { username: 'browser_editor', password: 'wrong' })).status).toBe(401);
    expect((await pageFetch(page, '/api/graphql', ME)).status).toBe(401);
    const login = await pageFetch(page, '/logIn', { username: 'browser_editor', password: 'editor-password' });
    expect(login).toEqual({ status: 200, body: { actor: user } });

    const cookies = await b.context.cookies(t.baseUrl);
    expect(cookies.find((c) => c.name === 'cairn_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // Scripts cannot read the session token; they can read who is logged in.
    const visible = await page.evaluate('document.cookie');
    expect(visible).not.toContain('cairn_session');
    expect(decodeURIComponent(visible as string)).toContain(`actor=${user}`);

    for (const path of ['/api/graphql', '/api/v2/graphql']) {
      expect(await pageFetch(page, path, ME)).toMatchObject({ status: 200, body: { data: { me: { corpUser: { urn: user }, platformPrivileges: { manageTags: true } } } } });
    }
    // The session is for the browser UI's API, not for the REST API.
    expect((await pageFetch(page, '/aspects?action=getCount', { aspect: 'status' })).status).toBe(401);

    await page.goto(`${t.baseUrl}/api/graphiql/`);
    const editor = page.locator('.graphiql-query-editor .CodeMirror').first();
    await editor.waitFor({ timeout: 20_000 });
    await page.evaluate(`document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue(${JSON.stringify(ME.query)})`);
    await page.locator('.graphiql-execute-button').click();
    await page.locator('.graphiql-response .CodeMirror').getByText(user).waitFor({ timeout: 20_000 });

    const attacker = await b.context.newPage();
    await attacker.goto(otherOrigin);
    await attacker.waitForFunction("document.title.startsWith('sent') || document.title === 'blocked'");
    expect((await call(t, 'POST', '/entities?action=exists', { urn: 'urn:li:tag:forged' }, SYSTEM)).body.value).toBe(false);

    expect((await pageFetch(page, '/logOut', {})).status).toBe(200);
    expect((await b.context.cookies(t.baseUrl)).map((c) => c.name)).not.toContain('cairn_session');
    expect((await pageFetch(page, '/api/graphql', ME)).status).toBe(401);
    await page.close();
    await attacker.close();
  }, 90_000);
});
