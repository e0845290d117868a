import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeIssues, fieldIssues } from '../contract/issues';

const NO_ARGUMENTS = z.object({});

/** A tools/call request's `_meta` (the UCP binding's tools read `_meta.ucp.profile`). */
export type CallMeta = Record<string, unknown> | undefined;

/** One shopping tool: what an agent reads in tools/list, and the API calls it makes. */
export interface ShoppingTool {
  name: string;
  describe(): Tool;
  call(args: unknown, meta?: CallMeta): Promise<CallToolResult>;
}

interface ToolDeclaration<Input extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input?: Input;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  run(args: z.output<Input>, meta: CallMeta): Promise<CallToolResult>;
  /** How arguments that break the schema are answered; by default a tool error. */
  invalid?(message: string): CallToolResult;
}

/**
 * Declares a tool whose arguments are checked by its contract schema here rather than by the
 * SDK, so that arguments which break the contract fail as every other failure does: a tool error
 * starting with the API's code (`INVALID_REQUEST: Invalid arguments: text must not be empty`), in
 * the words the HTTP API uses for the same mistake.
 */
export function defineTool<Input extends z.ZodObject = typeof NO_ARGUMENTS>(
  declaration: ToolDeclaration<Input>,
): ShoppingTool {
  const input = declaration.input ?? NO_ARGUMENTS;
  return {
    name: declaration.name,
    describe: () => ({
      name: declaration.name,
      title: declaration.title,
      description: declaration.description,
      inputSchema: jsonSchema(input, 'input'),
      outputSchema: jsonSchema(declaration.output, 'output'),
      annotations: declaration.annotations,
    }),
    call: async (args, meta) => {
      const parsed = input.safeParse(args ?? {});
      if (!parsed.success) {
        const message = `Invalid arguments: ${describeIssues(fieldIssues(parsed.error))}`;
        return declaration.invalid
          ? declaration.invalid(message)
          : failure('INVALID_REQUEST', message);
      }
      return declaration.run(parsed.data as z.output<Input>, meta);
    },
  };
}

/** A tool error an agent can act on like an HTTP client: the API's code, then the message. */
export function failure(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }] };
}

function jsonSchema(schema: z.ZodObject, io: 'input' | 'output') {
  return z.toJSONSchema(schema, { target: 'draft-7', io }) as Tool['inputSchema'];
}
