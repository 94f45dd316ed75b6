/** 401 (no or bad credentials) and 403 (not allowed), in the Rest.li error shape the REST API answers. */
import { RestliError } from '@cairn/core';

export const unauthenticated = (message: string) => new RestliError(401, message);
export const forbidden = (message: string) => new RestliError(403, `Unauthorized to perform this action: ${message}`);
