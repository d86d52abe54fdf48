import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from "@modelcontextprotocol/sdk/validation";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

/**
 * Output-schema validators compiled once per process and shared by every in-process client. The
 * SDK's default builds a new Ajv (formats included) per client and compiles every tool's output
 * schema on each tools/list: one client per agent session made fifty sessions spend seconds of CPU
 * on compiling the same forty schemas. Keyed by the schema's JSON: our tool schemas are a fixed set.
 */
export class CachedSchemaValidator implements jsonSchemaValidator {
  readonly #ajv = new AjvJsonSchemaValidator();
  readonly #compiled = new Map<string, JsonSchemaValidator<unknown>>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let validator = this.#compiled.get(key);
    if (!validator) {
      validator = this.#ajv.getValidator<unknown>(schema);
      this.#compiled.set(key, validator);
    }
    return validator as JsonSchemaValidator<T>;
  }
}
