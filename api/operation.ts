// What one API operation is: its path, how its arguments arrive, their schema and its answer's
// schema, its documentation and its handler. Each operation's file under routes/ exports one;
// the route table (operations.ts), the router (app.ts) and the OpenAPI document (openapi.ts)
// are built from them, so adding an operation touches one file.
import type { Context } from 'koa';
import type { z } from 'zod';
import type { ApiDeps } from './context.js';

/** An OpenAPI link from this operation's answer to another operation's argument. */
export interface OperationLink {
  /** The operation the answer leads to ("map/get"). */
  operation: string;
  description: string;
  /** Argument name → runtime expression of the value, such as "$response.body#/id". */
  arguments: Record<string, string>;
}

export interface Operation<Args extends z.ZodType = z.ZodType, Result extends z.ZodType = z.ZodType> {
  /** Under /api/1/: "map/get". */
  path: string;
  /** The URL of the module that exports it as `operation` (argument threads load it from there). */
  module: string;
  /** json: arguments are the JSON body; file: arguments in Service-API-Arg, the file is the body. */
  kind: 'json' | 'file';
  summary: string;
  description: string;
  args: Args;
  result: Result;
  /** File operations whose body may be absent (map/upload with file_type `empty`). */
  bodyOptional?: boolean;
  /** File operations that accept an Idempotency-Key header. */
  idempotencyKey?: boolean;
  /** One request and its answer, for the documentation. */
  example: { args: z.input<Args>; result: z.output<Result> };
  links?: Record<string, OperationLink>;
  /** A failure answer with more than `error` and `error_code` (feature/save's save_conflict): its component name and schema, one more choice of the answer. */
  failure?: { name: string; schema: z.ZodType };
  /** Does the work with validated arguments and sets ctx.body to the answer. */
  handle(ctx: Context, deps: ApiDeps, args: z.output<Args>): Promise<void>;
}

/**
 * Declares an operation: `export const operation = defineOperation(import.meta.url, {…})`. Keeps
 * the argument types of its handler tied to its schema.
 */
export function defineOperation<Args extends z.ZodType, Result extends z.ZodType>(
  module: string,
  operation: Omit<Operation<Args, Result>, 'module'>,
): Operation {
  return { module, ...operation } as unknown as Operation;
}
