export { MetadataTestEvaluator, type MetadataTest, type TestResult, type TestResults } from './evaluate';
export { parseTestDefinition, OPERATORS, type TestDefinition, type Rule, type Operator } from './test-definition';
