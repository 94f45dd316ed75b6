export { searchFieldsOf, edgesOf } from './document';
export { SearchSchema, searchSchemaOf, type IndexFieldSpec } from './search-schema';
export { parseInput, type InputTerm } from './query-input';
export { planFilter, FILTER_CONDITIONS, REMOVED_FIELD } from './filters';
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
