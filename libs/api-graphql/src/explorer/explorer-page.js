/* Starts GraphiQL on the endpoint named by the page; runs in the browser. */
(function () {
  var root = document.getElementById('graphiql');
  var fetcher = GraphiQL.createFetcher({ url: root.getAttribute('data-endpoint') });
  var defaultQuery = '# Ask the catalog, e.g.\n{\n  getEntityCounts {\n    counts {\n      entityType\n      count\n    }\n  }\n}\n';
  ReactDOM.createRoot(root).render(React.createElement(GraphiQL, { fetcher: fetcher, defaultQuery: defaultQuery }));
})();
