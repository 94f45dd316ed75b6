#!/usr/bin/env node
// Smoke check for the local Elasticsearch node started by
// deploy/local/start.sh: verifies the version and the features cairn relies
// on: painless scripting, _update_by_query, _reindex, and _delete_by_query
// run as a background task (wait_for_completion=false) polled through the
// tasks API. Uses scratch indices and removes them afterwards.
//
// Usage: node es-check.mjs [--url http://127.0.0.1:9200] [--expect-version 7.10.2]
// Exit status 0 on success, 1 on failure (reason on stderr).

const opts = { url: 'http://127.0.0.1:9200', expectVersion: null };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--url') opts.url = argv[++i].replace(/\/$/, '');
  else if (argv[i] === '--expect-version') opts.expectVersion = argv[++i];
  else {
    console.error(`es check: unknown argument ${argv[i]}`);
    process.exit(2);
  }
}

async function es(method, path, body, { ndjson = false } = {}) {
  const headers = {};
  let payload;
  if (body !== undefined) {
    headers['content-type'] = ndjson ? 'application/x-ndjson' : 'application/json';
    payload = ndjson ? body : JSON.stringify(body);
  }
  const res = await fetch(opts.url + path, { method, headers, body: payload, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} -> HTTP ${res.status}: ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : {};
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function count(index, query) {
  const res = await es('POST', `/${index}/_count`, query ? { query } : undefined);
  return res.count;
}

async function main() {
  const root = await es('GET', '/');
  const version = root.version?.number;
  console.log(`es smoke: version ${version} (flavor ${root.version?.build_flavor}), cluster ${root.cluster_name}`);
  if (opts.expectVersion) {
    assert(version === opts.expectVersion, `expected version ${opts.expectVersion}, got ${version}`);
  }

  const suffix = `${process.pid}-${Date.now()}`;
  const src = `cairn-local-smoke-src-${suffix}`;
  const dst = `cairn-local-smoke-dst-${suffix}`;
  try {
    await es('PUT', `/${src}`, {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: { properties: { n: { type: 'long' }, name: { type: 'keyword' } } },
    });
    const lines = [];
    for (let i = 1; i <= 20; i++) {
      lines.push(JSON.stringify({ index: { _index: src, _id: String(i) } }));
      lines.push(JSON.stringify({ n: i, name: i % 2 === 0 ? 'even' : 'odd' }));
    }
    const bulk = await es('POST', '/_bulk?refresh=true', `${lines.join('\n')}\n`, { ndjson: true });
    assert(!bulk.errors, `bulk indexing reported errors: ${JSON.stringify(bulk.items?.find((x) => x.index?.error))}`);

    // painless in an update-by-query script with params
    const ubq = await es('POST', `/${src}/_update_by_query?refresh=true&conflicts=proceed`, {
      query: { term: { name: 'odd' } },
      script: { lang: 'painless', source: 'ctx._source.n += params.delta', params: { delta: 100 } },
    });
    assert(ubq.updated === 10, `_update_by_query updated ${ubq.updated} documents, expected 10`);
    // painless in a script query and a script field
    const search = await es('POST', `/${src}/_search`, {
      query: { script: { script: { lang: 'painless', source: "doc['n'].value > params.min", params: { min: 100 } } } },
      script_fields: { doubled: { script: { lang: 'painless', source: "doc['n'].value * 2" } } },
      size: 20,
    });
    assert(search.hits.total.value === 10, `script query matched ${search.hits.total.value}, expected 10`);
    assert(search.hits.hits.every((h) => h.fields.doubled[0] > 200), 'script_fields returned unexpected values');
    console.log('es smoke: painless (update_by_query, script query, script_fields) ok');

    // _reindex with a painless transform
    const reindex = await es('POST', '/_reindex?refresh=true', {
      source: { index: src },
      dest: { index: dst },
      script: { lang: 'painless', source: "ctx._source.copied = true; if (ctx._source.name == 'odd') { ctx._source.n -= 100 }" },
    });
    assert(reindex.created === 20, `_reindex created ${reindex.created}, expected 20`);
    assert((await count(dst, { term: { copied: true } })) === 20, 'reindexed documents lack the scripted field');
    assert((await count(dst, { range: { n: { gt: 20 } } })) === 0, 'reindex script did not transform the documents');
    console.log('es smoke: _reindex with script ok');

    // _delete_by_query as a background task, polled via the tasks API
    const started = await es('POST', `/${dst}/_delete_by_query?wait_for_completion=false&conflicts=proceed&refresh=true`, {
      query: { term: { name: 'even' } },
    });
    assert(typeof started.task === 'string', `_delete_by_query did not return a task id: ${JSON.stringify(started)}`);
    let task;
    const deadline = Date.now() + 30_000;
    for (;;) {
      task = await es('GET', `/_tasks/${encodeURIComponent(started.task)}`);
      if (task.completed) break;
      assert(Date.now() < deadline, `task ${started.task} did not complete within 30 s`);
      await sleep(200);
    }
    assert(!task.error, `delete-by-query task failed: ${JSON.stringify(task.error)}`);
    assert(task.response?.deleted === 10, `delete-by-query task deleted ${task.response?.deleted}, expected 10`);
    assert((await count(dst)) === 10, 'documents remain that delete-by-query should have removed');
    console.log(`es smoke: _delete_by_query wait_for_completion=false + _tasks/${started.task} ok`);
  } finally {
    await es('DELETE', `/${src},${dst}?ignore_unavailable=true`).catch(() => {});
  }
  console.log('es smoke: ok');
}

main().catch((err) => {
  console.error(`es smoke: FAILED: ${err.message}`);
  process.exit(1);
});
