/** GraphQL errors with a machine-readable code; client mistakes are told apart from failures. */
import { GraphQLError } from 'graphql';
import { RestliError } from '@cairn/core';

export function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

export function notFound(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'NOT_FOUND' } });
}

export function forbidden(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'FORBIDDEN' } });
}

/** Write-pipeline errors (Rest.li errors) become GraphQL errors with the same message. */
export function fromPipelineError(err: unknown): unknown {
  if (!(err instanceof RestliError)) return err;
  if (err.status === 403) return forbidden(err.message);
  if (err.status === 404) return notFound(err.message);
  if (err.status < 500) return badInput(err.message);
  return new GraphQLError(err.message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}
