export { searchFieldsOf, edgesOf } from './document';
export { SearchSchema, searchSchemaOf, type IndexFieldSpec } from './search-schema';
export { parseInput, type InputTerm } from './query-input';
export { planFilter, planTimeseriesFilter, FILTER_CONDITIONS, REMOVED_FIELD, TIMESERIES_COMMON_FIELDS } from './filters';
export {
  planSearch,
  planAutocomplete,
  planBrowse,
  planSelection,
  normalizeBrowsePath,
  FACET_SIZE,
  type SearchRequest,
  type AutocompleteRequest,
  type BrowseRequest,
  type SelectionRequest,
} from './plan';
export { aggregateRows, bucketStart, type EventRow as TimeseriesEventRow } from './timeseries-aggregation';
export { indexText, indexWords, queryForms, holdsWords, urnComponents, scalarValues } from './words';
