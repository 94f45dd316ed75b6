/**
 * The GraphiQL explorer and the REST docs in a real headless browser: the explorer loads with no
 * request leaving the server, runs a query and shows its result; the docs list every route.
 */
import { browserAvailable, launchBrowser, type RunningBrowser } from '../support/browser';
import { call, startTarget, type Target } from '../support/target';

const QUERY = '{ me { corpUser { urn } platformPrivileges { manageTags } } }';
const describeInBrowser = browserAvailable() ? describe : describe.skip;

describeInBrowser('in a headless browser', () => {
  let t: Target;
  let b: RunningBrowser;
  beforeAll(async () => {
    t = await startTarget();
    b = await launchBrowser(t.authHeaders);
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  it('the explorer works offline: runs a query and shows the result', async () => {
    const page = await b.context.newPage();
    const foreign: string[] = [];
    const origin = new URL(t.baseUrl).origin;
    page.on('request', (req) => {
      if (!req.url().startsWith(origin) && !req.url().startsWith('data:')) foreign.push(req.url());
    });
    await page.goto(`${t.baseUrl}/api/graphiql`);
    const editor = page.locator('.graphiql-query-editor .CodeMirror').first();
    await editor.waitFor({ timeout: 20_000 });
    // The editor is CodeMirror 5; its instance hangs on its element. (A string runs in the page.)
    await page.evaluate(`document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue(${JSON.stringify(QUERY)})`);
    await page.locator('.graphiql-execute-button').click();
    const result = page.locator('.graphiql-response .CodeMirror');
    await result.getByText('urn:li:corpuser:__datahub_system').waitFor({ timeout: 20_000 });
    expect(await result.innerText()).toContain('"manageTags": true');
    expect(foreign).toEqual([]);
    await page.close();
  }, 60_000);

  it('the REST docs list every route with its parameters and an example', async () => {
    const routes = (await call(t, 'GET', '/restli/docs/routes.json')).body as { method: string; path: string; action?: string; params: { name: string }[] }[];
    const page = await b.context.newPage();
    await page.goto(`${t.baseUrl}/restli/docs`);
    expect(await page.title()).toBe('cairn REST API');
    const titles = await page.locator('section.route h3').allInnerTexts();
    expect(titles).toEqual(routes.map((r) => `${r.method} ${r.path}${r.action ? `?action=${r.action}` : ''}`));
    const ingest = page.locator('section.route', { hasText: 'POST /aspects?action=ingestProposal' }).first();
    expect(await ingest.locator('td code').allInnerTexts()).toEqual(['proposal', 'async']);
    expect(await ingest.locator('pre').first().innerText()).toContain('"changeType": "UPSERT"');
    await page.close();
  }, 60_000);
});
