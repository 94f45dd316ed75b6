export { searchFieldsOf, edgesOf } from './document';
